#!/usr/bin/python3
"""Writes a tiny Llama model with random weights and the Llama 3 vocabulary, plus a matching tokenizer.json.

The model exists to exercise a real inference engine (llama.cpp's llama-server) in CI: it loads, streams and
counts tokens exactly like a real Llama 3 model would, but it is small enough to stream hundreds of tokens
per second on one CPU thread and is generated here instead of downloaded. Its output is random text.

Usage (run by .ci/setup-llama.sh):
    PYTHONPATH=<llama.cpp>/gguf-py /usr/bin/python3 make_tiny_model.py \
        --vocab <llama.cpp>/models/ggml-vocab-llama-bpe.gguf --out model.gguf --tokenizer-out tokenizer.json

Needs only numpy (Debian's python3-numpy) and llama.cpp's own gguf-py. Deterministic: the same inputs give
byte-identical outputs, so runs on different machines serve the same model.
"""

import argparse
import json
import sys

import numpy as np
from gguf import GGUFReader, GGUFWriter

# Shape. Small enough that the per-token cost is dominated by the 128256-way output projection (~33M
# multiply-adds), which one CPU thread does a few hundred times a second; big enough to be a normal
# multi-head, grouped-query Llama that llama.cpp takes no special path for.
N_LAYER = 2            # two blocks: the layer loop runs more than once, as in every real model
N_EMBD = 256           # model width
N_HEAD = 4             # head size 64, a size every attention kernel in ggml supports
N_HEAD_KV = 2          # grouped-query attention (2 query heads per KV head), as Llama 3 uses
N_FF = 768             # 3x the width, a multiple of 256 like Llama's SwiGLU sizes
CONTEXT_LENGTH = 8192  # Llama 3's training context: the server is run with -c 8192 without a warning
ROPE_FREQ_BASE = 500000.0  # Llama 3's RoPE base
RMS_EPS = 1e-5         # Llama 3's RMSNorm epsilon
WEIGHT_STD = 0.02      # the usual initialisation scale; logits stay small, so sampling is near-uniform
SEED = 20250601        # fixed: the same model every time

# Llama 3's chat format, written out here because the vocabulary file carries no template. llama.cpp
# recognises it as "llama3" (by <|start_header_id|>), so chat requests are formatted as for a real Llama 3.
CHAT_TEMPLATE = (
    "{{- bos_token }}"
    "{%- for message in messages %}"
    "{{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\\n\\n' + message['content'] | trim"
    " + '<|eot_id|>' }}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}{%- endif %}"
)

# Llama 3's pre-tokenization regex, as its tokenizer.json has it (tiktoken's cl100k pattern with digits in
# groups of up to three). Its \s means any Unicode white space in llama.cpp, Hugging Face tokenizers and Python;
# Goodput's reader compiles it so in Java too, and the real-server tokenizer test checks that it splits no-break
# and ideographic spaces exactly as the server does.
SPLIT_REGEX = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)"
    r"|[^\r\n\p{L}\p{N}]?\p{L}+"
    r"|\p{N}{1,3}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+"
    r"|\s+(?!\S)"
    r"|\s+"
)

# GGUF token types (llama.cpp's llama_token_type): 3 = control (<|begin_of_text|>, <|eot_id|>, the reserved
# special tokens), 4 = user-defined. Both are "added tokens" in Hugging Face's terms.
ADDED_TOKEN_TYPES = (3, 4)


def read_vocab(path):
    """The tokenizer.* fields of llama.cpp's Llama 3 vocabulary file, as plain Python values."""
    reader = GGUFReader(path)

    def value(key):
        field = reader.fields.get(key)
        if field is None:
            sys.exit(f"{path} has no {key}")
        return field.contents()

    return {
        "model": value("tokenizer.ggml.model"),
        "pre": value("tokenizer.ggml.pre"),
        "tokens": value("tokenizer.ggml.tokens"),
        "types": [int(t) for t in value("tokenizer.ggml.token_type")],
        "merges": value("tokenizer.ggml.merges"),
        "bos": int(value("tokenizer.ggml.bos_token_id")),
        "eos": int(value("tokenizer.ggml.eos_token_id")),
    }


def write_model(path, vocab):
    n_vocab = len(vocab["tokens"])
    head_dim = N_EMBD // N_HEAD
    eot = vocab["tokens"].index("<|eot_id|>")

    writer = GGUFWriter(path, "llama")
    writer.add_name("goodput tiny-llama3 (random weights)")
    writer.add_description("2-layer, 256-wide Llama with random F16 weights and the Llama 3 vocabulary; "
                           "made by goodput's .ci/llama/make_tiny_model.py for load-testing, not for text")
    writer.add_context_length(CONTEXT_LENGTH)
    writer.add_embedding_length(N_EMBD)
    writer.add_block_count(N_LAYER)
    writer.add_feed_forward_length(N_FF)
    writer.add_head_count(N_HEAD)
    writer.add_head_count_kv(N_HEAD_KV)
    writer.add_rope_dimension_count(head_dim)
    writer.add_rope_freq_base(ROPE_FREQ_BASE)
    writer.add_layer_norm_rms_eps(RMS_EPS)
    writer.add_vocab_size(n_vocab)
    writer.add_file_type(1)  # LLAMA_FTYPE_MOSTLY_F16

    writer.add_tokenizer_model(vocab["model"])  # "gpt2": byte-level BPE
    writer.add_tokenizer_pre(vocab["pre"])      # "llama-bpe": Llama 3's pre-tokenizer
    writer.add_token_list(vocab["tokens"])
    writer.add_token_types(vocab["types"])
    writer.add_token_merges(vocab["merges"])
    writer.add_bos_token_id(vocab["bos"])       # <|begin_of_text|>
    writer.add_eos_token_id(vocab["eos"])       # <|end_of_text|>
    writer.add_eot_token_id(eot)                # <|eot_id|>: ends an assistant turn
    writer.add_add_bos_token(True)              # as Llama 3: every prompt starts with <|begin_of_text|>
    writer.add_chat_template(CHAT_TEMPLATE)

    rng = np.random.default_rng(SEED)

    def matrix(rows, cols):
        # Drawn in float32 and rounded to float16, in a fixed order: deterministic on every platform.
        # numpy's (rows, cols) is ggml's ne = [cols, rows]: rows are output features, as llama.cpp expects.
        return (rng.standard_normal((rows, cols), dtype=np.float32) * WEIGHT_STD).astype(np.float16)

    def norm():
        # RMSNorm scales start at one, as in training; 1-D tensors stay float32 (ggml requires it).
        return np.ones(N_EMBD, dtype=np.float32)

    # No output.weight: llama.cpp then uses the token embedding as the output projection (tied embeddings,
    # as Llama 3.2 does), which halves the file.
    writer.add_tensor("token_embd.weight", matrix(n_vocab, N_EMBD))
    for i in range(N_LAYER):
        writer.add_tensor(f"blk.{i}.attn_norm.weight", norm())
        writer.add_tensor(f"blk.{i}.attn_q.weight", matrix(N_HEAD * head_dim, N_EMBD))
        writer.add_tensor(f"blk.{i}.attn_k.weight", matrix(N_HEAD_KV * head_dim, N_EMBD))
        writer.add_tensor(f"blk.{i}.attn_v.weight", matrix(N_HEAD_KV * head_dim, N_EMBD))
        writer.add_tensor(f"blk.{i}.attn_output.weight", matrix(N_EMBD, N_HEAD * head_dim))
        writer.add_tensor(f"blk.{i}.ffn_norm.weight", norm())
        writer.add_tensor(f"blk.{i}.ffn_gate.weight", matrix(N_FF, N_EMBD))
        writer.add_tensor(f"blk.{i}.ffn_up.weight", matrix(N_FF, N_EMBD))
        writer.add_tensor(f"blk.{i}.ffn_down.weight", matrix(N_EMBD, N_FF))
    writer.add_tensor("output_norm.weight", norm())

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def tokenizer_json(vocab):
    """The same vocabulary in Hugging Face's tokenizer.json form (BPE, byte-level), as Llama 3 ships it.

    The GGUF stores tokens already in the byte-level alphabet (GPT-2's byte-to-unicode map, space as "Ġ"),
    which is exactly what tokenizer.json's vocab and merges hold, so they are copied as they are.
    """
    tokens, types = vocab["tokens"], vocab["types"]
    added = [
        {"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False,
         "normalized": False, "special": True}
        for i, (t, kind) in enumerate(zip(tokens, types)) if kind in ADDED_TOKEN_TYPES
    ]
    bos = tokens[vocab["bos"]]
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": None,
        "pre_tokenizer": {
            "type": "Sequence",
            "pretokenizers": [
                {"type": "Split", "pattern": {"Regex": SPLIT_REGEX}, "behavior": "Isolated", "invert": False},
                {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False},
            ],
        },
        # As Llama 3: <|begin_of_text|> in front when special tokens are added (llama.cpp's add_special).
        "post_processor": {
            "type": "Sequence",
            "processors": [
                {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False, "use_regex": True},
                {
                    "type": "TemplateProcessing",
                    "single": [{"SpecialToken": {"id": bos, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
                    "pair": [{"SpecialToken": {"id": bos, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                             {"SpecialToken": {"id": bos, "type_id": 1}}, {"Sequence": {"id": "B", "type_id": 1}}],
                    "special_tokens": {bos: {"id": bos, "ids": [vocab["bos"]], "tokens": [bos]}},
                },
            ],
        },
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
        "model": {
            "type": "BPE",
            "dropout": None,
            "unk_token": None,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": False,
            # As Llama 3 and llama.cpp's llama-bpe: a pre-tokenized word that is itself in the vocabulary is
            # one token, whatever the merges would make of it.
            "ignore_merges": True,
            "vocab": {t: i for i, t in enumerate(tokens)},
            "merges": vocab["merges"],
        },
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vocab", required=True, help="llama.cpp's models/ggml-vocab-llama-bpe.gguf")
    parser.add_argument("--out", required=True, help="the model file to write (.gguf)")
    parser.add_argument("--tokenizer-out", required=True, help="the tokenizer.json to write")
    args = parser.parse_args()

    vocab = read_vocab(args.vocab)
    if vocab["model"] != "gpt2" or vocab["pre"] != "llama-bpe":
        sys.exit(f"{args.vocab} is not the Llama 3 vocabulary (model {vocab['model']}, pre {vocab['pre']})")
    write_model(args.out, vocab)
    with open(args.tokenizer_out, "w", encoding="utf-8") as out:
        json.dump(tokenizer_json(vocab), out, ensure_ascii=False, separators=(",", ":"))
        out.write("\n")
    print(f"wrote {args.out} and {args.tokenizer_out} ({len(vocab['tokens'])} tokens)", file=sys.stderr)


if __name__ == "__main__":
    main()
