"""vLLM's benchmark client as the reference for Goodput's client benchmark (issue 15).

Runs vLLM's own request function, async_request_openai_completions from a vLLM checkout's
vllm/benchmarks/lib/endpoint_request_func.py (passed as --module; nothing of vLLM is part of Goodput), in a closed
loop: --streams users, each sending --rounds requests one after another over one shared aiohttp session set up as
`vllm bench serve` sets up its own (a TCPConnector limited to the concurrency, keep-alive 60 s). vLLM's function
stamps each content chunk with time.perf_counter(), which on Linux reads CLOCK_MONOTONIC, the clock Java's
System.nanoTime() reads, so its stamps compare directly with the simulated server's record of its writes.

Every request's prompt has its own number of words (--first-prompt-words, then one more per request), which the
simulated server reports as the request's prompt tokens: that is how ClientBenchmark finds the server's record of
each request, since vLLM's function does not keep the response id.

Prints one JSON object: the process's CPU seconds over the timed requests, their wall seconds, and per request its
prompt words, success and each content chunk's receipt in nanoseconds of the monotonic clock.
"""

import argparse
import asyncio
import importlib.util
import json
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
    connector = aiohttp.TCPConnector(
        limit=args.streams,
        limit_per_host=args.streams,
        ttl_dns_cache=300,
        use_dns_cache=True,
        keepalive_timeout=60,
        enable_cleanup_closed=True,
        force_close=False,
    )
    results = []
    next_words = [args.first_prompt_words]

    def next_input():
        words = next_words[0]
        next_words[0] += 1
        return vllm.RequestFuncInput(
            prompt=" ".join("w%d" % i for i in range(words)),
            api_url=api_url,
            prompt_len=words,
            output_len=args.output_tokens,
            model=args.model,
            ignore_eos=True,
        ), words

    async with aiohttp.ClientSession(
        connector=connector, trust_env=True, timeout=vllm.AIOHTTP_TIMEOUT
    ) as session:
        # As `vllm bench serve` does, one request before the timed ones.
        request, _ = next_input()
        test = await vllm.async_request_openai_completions(request, session)
        if not test.success:
            sys.exit("the reference client's first request failed: " + test.error)

        async def user():
            for _ in range(args.rounds):
                request, words = next_input()
                output = await vllm.async_request_openai_completions(request, session)
                stamps = []
                if output.success:
                    at = output.start_time + output.ttft
                    stamps.append(at)
                    for gap in output.itl:
                        at += gap
                        stamps.append(at)
                results.append({
                    "prompt_words": words,
                    "success": output.success,
                    "error": output.error[-500:],
                    "chunk_nanos": [round(s * 1e9) for s in stamps],
                })

        cpu_start = time.process_time()
        wall_start = time.perf_counter()
        await asyncio.gather(*(user() for _ in range(args.streams)))
        wall = time.perf_counter() - wall_start
        cpu = time.process_time() - cpu_start

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
