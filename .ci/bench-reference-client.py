"""vLLM's benchmark client as the reference for Goodput's client benchmark (issue 15).

Runs vLLM's own request function, async_request_openai_completions from a vLLM checkout's
vllm/benchmarks/lib/endpoint_request_func.py (passed as --module; nothing of vLLM is part of Goodput), in a closed
loop run as `vllm bench serve --max-concurrency <streams> --request-rate inf --num-warmups <streams>` runs it:
one aiohttp session set up as its own (a TCPConnector limited to the concurrency, keep-alive 60 s, trust_env), its
initial test request and the warm-up requests untimed, then <streams> x <rounds> requests as tasks held to
<streams> at once by a semaphore, every input built before the timed part, nothing else in it. vLLM's function
stamps each content chunk with time.perf_counter(), which on Linux reads CLOCK_MONOTONIC, the clock Java's
System.nanoTime() reads, so its stamps compare directly with the simulated server's record of its writes.

Every request's prompt has its own number of words (--first-prompt-words, then one more per request), which the
simulated server reports as the request's prompt tokens: that is how ClientBenchmark finds the server's record of
each request, since vLLM's function does not keep the response id.

Prints one JSON object: the process's CPU seconds over the timed requests (time.process_time(), every thread of
the process), their wall seconds, and per request its prompt words, success and each content chunk's receipt in
nanoseconds of the monotonic clock; on standard error, the Python, the aiohttp and the HTTP parser it ran with
(aiohttp._http_parser is its C parser), since the figure depends on them.
"""

import argparse
import asyncio
import importlib.util
import json
import platform
import sys
import time

import aiohttp


def load_module(path):
    spec = importlib.util.spec_from_file_location("vllm_endpoint_request_func", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def main(args):
    vllm = load_module(args.module)
    api_url = args.url.rstrip("/") + "/v1/completions"
    # As `vllm bench serve` sets up its session (vllm/benchmarks/serve.py, benchmark()): one TCPConnector limited
    # to the concurrency, keep-alive 60 s, trust_env, its 6-hour timeout.
    connector = aiohttp.TCPConnector(
        limit=args.streams,
        limit_per_host=args.streams,
        ttl_dns_cache=300,
        use_dns_cache=True,
        keepalive_timeout=60,
        enable_cleanup_closed=True,
        force_close=False,
        ssl=False,
    )
    words = [args.first_prompt_words]

    def next_input():
        # Built before the timed part, as `vllm bench serve` samples its whole dataset first.
        count = words[0]
        words[0] += 1
        return vllm.RequestFuncInput(
            prompt=" ".join("w%d" % i for i in range(count)),
            api_url=api_url,
            prompt_len=count,
            output_len=args.output_tokens,
            model=args.model,
            ignore_eos=True,
        )

    test_input = next_input()
    warmups = [next_input() for _ in range(args.streams)]
    inputs = [next_input() for _ in range(args.streams * args.rounds)]

    async with aiohttp.ClientSession(
        connector=connector, trust_env=True, timeout=vllm.AIOHTTP_TIMEOUT
    ) as session:
        # As `vllm bench serve` does: its initial test request, then --num-warmups requests (here one per stream,
        # which also opens the connections) at the same concurrency, none of them timed.
        test = await vllm.async_request_openai_completions(test_input, session)
        if not test.success:
            sys.exit("the reference client's first request failed: " + test.error)
        semaphore = asyncio.Semaphore(args.streams)

        async def limited(request):
            async with semaphore:
                return await vllm.async_request_openai_completions(request, session)

        await asyncio.gather(*(asyncio.create_task(limited(r)) for r in warmups))

        # The timed part, as `vllm bench serve --max-concurrency N --request-rate inf`: one task per request, at
        # most N at once; nothing else runs in it.
        cpu_start = time.process_time()
        wall_start = time.perf_counter()
        outputs = await asyncio.gather(*(asyncio.create_task(limited(r)) for r in inputs))
        wall = time.perf_counter() - wall_start
        cpu = time.process_time() - cpu_start

    results = []
    for request, output in zip(inputs, outputs):
        stamps = []
        if output.success:
            at = output.start_time + output.ttft
            stamps.append(at)
            for gap in output.itl:
                at += gap
                stamps.append(at)
        results.append({
            "prompt_words": request.prompt_len,
            "success": output.success,
            "error": output.error[-500:],
            "chunk_nanos": [round(s * 1e9) for s in stamps],
        })
    print("reference client: Python %s, aiohttp %s, HTTP parser %s" % (
        platform.python_version(), aiohttp.__version__, aiohttp.http_parser.HttpResponseParser.__module__),
        file=sys.stderr)
    json.dump({"cpu_seconds": cpu, "wall_seconds": wall, "requests": results}, sys.stdout)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", required=True, help="a vLLM checkout's endpoint_request_func.py")
    parser.add_argument("--url", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--streams", type=int, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--output-tokens", type=int, default=1000)
    parser.add_argument("--first-prompt-words", type=int, default=1000)
    asyncio.run(main(parser.parse_args()))
