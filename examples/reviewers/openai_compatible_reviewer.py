#!/usr/bin/env python3
"""A command reviewer for rhetorica: reviews one manuscript with any OpenAI-compatible endpoint
(vLLM, Ollama, llama.cpp server, OpenRouter, OpenAI …) on an AI-Scientist-style review form, and
prints the review as one JSON object on stdout.

Standard library only. Run it by hand::

    REVIEWER_API_KEY=sk-... python openai_compatible_reviewer.py paper.md \\
        --base-url http://localhost:8000/v1 --model qwen2.5-7b-instruct

or as a rhetorica ``command`` reviewer (the key is passed through by name, nothing else is)::

    reviewers:
      - name: ai-scientist-style
        kind: command
        options:
          args: [python, examples/reviewers/openai_compatible_reviewer.py, "{input}",
                 --base-url, "http://localhost:8000/v1", --model, qwen2.5-7b-instruct, --seed, "{replicate}"]
          adapter: ai-scientist
          pass_env: [REVIEWER_API_KEY]
          timeout_s: 900

Arguments: the manuscript path (``-`` or nothing: standard input); ``--base-url`` and ``--model``
(defaults from ``REVIEWER_BASE_URL`` / ``REVIEWER_MODEL``); ``--api-key-env`` names the variable
that holds the key (default ``REVIEWER_API_KEY``; unset = no key, for local servers);
``--temperature``, ``--max-tokens``, ``--seed`` (default ``RHETORICA_REPLICATE``), ``--timeout``;
``--no-json-mode`` for servers that reject ``response_format``.

Output fields (the AI Scientist's review form: Lu et al. 2024, "The AI Scientist"): Summary,
Strengths, Weaknesses, Questions, Limitations (text); Soundness, Presentation, Contribution (1-4);
Overall (1-10); Confidence (1-5); Decision (Accept | Reject). The reply is printed as the model gave
it (no value is changed); rhetorica's ``ai-scientist`` adapter validates it.

Exit status: 0 = a JSON object was printed, or the model's text when it held none (rhetorica then
records the review as malformed); 1 = the request failed (HTTP error, timeout, bad answer shape);
2 = bad arguments.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.request

INSTRUCTIONS = """You are an experienced reviewer for a leading machine-learning conference. Read the
submission below and write a careful, critical and fair review of it.

Answer with one JSON object and nothing else, with these fields:
- "Summary": what the paper claims and does, in a few sentences.
- "Strengths": a list of its main strengths.
- "Weaknesses": a list of its main weaknesses.
- "Questions": a list of questions whose answers could change your assessment.
- "Limitations": the limitations and possible negative impact the authors should address.
- "Soundness": 1 (poor), 2 (fair), 3 (good) or 4 (excellent): are the claims supported?
- "Presentation": 1 (poor) to 4 (excellent): is the paper clear and well organised?
- "Contribution": 1 (poor) to 4 (excellent): how much does it add to the field?
- "Overall": a whole number from 1 (very strong reject) to 10 (award quality); 6 means a weak accept.
- "Confidence": 1 (educated guess) to 5 (absolutely certain) about your assessment.
- "Decision": "Accept" or "Reject"."""


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manuscript", nargs="?", default="-", help="manuscript file (Markdown or text); - = stdin")
    parser.add_argument("--base-url", default=os.environ.get("REVIEWER_BASE_URL"))
    parser.add_argument("--model", default=os.environ.get("REVIEWER_MODEL"))
    parser.add_argument("--api-key-env", default="REVIEWER_API_KEY")
    parser.add_argument("--temperature", type=float, default=None)
    parser.add_argument("--max-tokens", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=int(os.environ.get("RHETORICA_REPLICATE", "0")))
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds for the request")
    parser.add_argument("--no-json-mode", action="store_true", help="do not send response_format")
    args = parser.parse_args(argv)
    if not args.base_url or not args.model:
        parser.error("--base-url and --model are required (or set REVIEWER_BASE_URL and REVIEWER_MODEL)")
    return args


def final_object(text: str) -> dict | None:
    """The last JSON object in ``text`` (code fences and prose around it allowed), else None."""
    decoder = json.JSONDecoder()
    found = None
    start = text.find("{")
    while start != -1:
        try:
            value, end = decoder.raw_decode(text, start)
        except ValueError:
            start = text.find("{", start + 1)
            continue
        if isinstance(value, dict):
            found = value
        start = text.find("{", end)
    return found


def review(args: argparse.Namespace, manuscript: str) -> str:
    """The model's reply text. Raises RuntimeError when the request fails."""
    body: dict = {"model": args.model, "max_tokens": args.max_tokens, "seed": args.seed,
                  "messages": [{"role": "system", "content": INSTRUCTIONS},
                               {"role": "user", "content": manuscript}]}
    if args.temperature is not None:
        body["temperature"] = args.temperature
    if not args.no_json_mode:
        body["response_format"] = {"type": "json_object"}
    headers = {"Content-Type": "application/json"}
    key = os.environ.get(args.api_key_env)
    if key:
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(args.base_url.rstrip("/") + "/chat/completions",
                                     data=json.dumps(body).encode("utf-8"), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=args.timeout) as response:
            answer = json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        raise RuntimeError(f"HTTP {exc.code}: {exc.read().decode('utf-8', 'replace')[:300]}") from None
    except (urllib.error.URLError, TimeoutError, ValueError) as exc:
        raise RuntimeError(f"request failed: {exc}") from None
    try:
        return answer["choices"][0]["message"]["content"] or ""
    except (KeyError, IndexError, TypeError):
        raise RuntimeError(f"unexpected answer shape: {str(answer)[:300]}") from None


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.manuscript == "-":
        manuscript = sys.stdin.read()
    else:
        with open(args.manuscript, encoding="utf-8") as handle:
            manuscript = handle.read()
    try:
        text = review(args, manuscript)
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 1
    found = final_object(text)
    print(json.dumps(found) if found is not None else text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
