"""`run --model a,b,c` (and repeated `--provider/--model` pairs): the same plan sent to several
models, one after another, each with its own cap, concurrency and key, one results file per
model in --out-dir, then the leaderboard of them all on stdout.

An edge, above live.py (whose `prepare` and `execute` run each model exactly as a single `run`
does). Every model is checked and announced (endpoint, key variable, cases, requests, cap)
before the first request of any is sent; a model whose run fails entirely does not stop the
others. It writes only the files it names, never over an existing one, and deletes nothing; it
writes them through a handle on --out-dir opened once (folder.py), so a folder moved or swapped
for a symlink mid-run still gets them and nothing lands outside it.
Exit code: the worst of the models' (130 interrupted, 2 a run stopped, 1 a gate, 3 incomplete, 0).
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import TextIO

from toolproof.datafiles import load_suite_files, read_json
from toolproof.errors import ToolProofError
from toolproof.safe_text import printable

from .board import board_of, render
from .files import check_outputs, check_writable, guarded_data_folders
from .flags import suite_inputs, write_text
from .folder import HELD, HeldFolder, check_place
from .live import execute, prepare

MAX_MODELS = 20
SEVERITY = (0, 3, 1, 2, 130)        # a worse exit code comes later


def _models(value: str) -> list[str]:
    names = [m.strip() for m in value.split(",")]
    if any(not m for m in names):
        raise ToolProofError(f"--model {value!r}: an empty model name (write --model a,b,c)")
    return names


def targets(args: argparse.Namespace) -> list[tuple[str, str, str]]:
    """(provider, model, base URL) for every model the flags name, in order. One --provider
    serves every --model; otherwise each --provider pairs with the --model at its position.
    --base-url: once for all, or once per --provider."""
    providers, models, urls = args.provider, args.model, args.base_url
    if len(providers) == 1:
        groups = [(providers[0], value) for value in models]
        if len(urls) > 1:
            raise ToolProofError("--base-url given more than once for one --provider")
    elif len(providers) == len(models):
        groups = list(zip(providers, models))
        if len(urls) not in (0, 1, len(providers)):
            raise ToolProofError(f"--base-url given {len(urls)} times for {len(providers)} --provider flags: "
                                 "give it once for all, or once per --provider")
    else:
        raise ToolProofError(f"{len(providers)} --provider flags and {len(models)} --model flags: give one "
                             "--provider for all models, or one --model (a,b,c) after each --provider")
    url_for = urls if len(urls) == len(groups) and len(providers) > 1 else [urls[0] if urls else ""] * len(groups)
    out = [(p, m, url) for (p, value), url in zip(groups, url_for) for m in _models(value)]
    if len(out) > MAX_MODELS:
        raise ToolProofError(f"at most {MAX_MODELS} models in one run command, got {len(out)}")
    seen = set()
    for provider, model, url in out:
        if (provider, model, url) in seen:
            raise ToolProofError(f"{provider} / {model} is named twice")
        seen.add((provider, model, url))
    return out


def file_name(provider: str, model: str, taken: set) -> str:
    """'anthropic-claude-x.json': the model's results file name, letters, digits . _ - only."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", f"{provider}-{model}").strip("._")[:120] or "model"
    name, n = f"{stem}.json", 2
    while name.lower() in taken:
        name, n = f"{stem}-{n}.json", n + 1
    taken.add(name.lower())
    return name


def _check_flags(args: argparse.Namespace) -> None:
    if not args.out_dir:
        raise ToolProofError("several models need --out-dir DIR (one results file per model)")
    for flag, value in (("--out", args.out), ("--junit", args.junit)):
        if value:
            raise ToolProofError(f"{flag} is for one model; with several, --out-dir keeps each run's results "
                                 "(grade or board them afterwards)")


def _held(folder: Path, environ: dict) -> HeldFolder | None:
    """The folder, made if need be and opened once: every results file is written (and read back
    for the board) through this handle, checked again on the handle (folder.py). None where the
    platform has no handles to write through (then by path, as before)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ToolProofError(f"--out-dir: cannot make the folder ({exc.strerror or exc.__class__.__name__})",
                             source=str(folder)) from None
    if not HELD:
        return None
    held = HeldFolder(folder)
    try:
        held.check(environ=environ, data_folders=guarded_data_folders())
    except ToolProofError:
        held.close()
        raise
    return held


def run_models(args: argparse.Namespace, chosen: list, stdout: TextIO, stderr: TextIO, environ: dict) -> int:
    if args.out_dir == "":           # Path("") is the current folder: an empty flag is a mistake, not "here"
        raise ToolProofError("--out-dir: an empty path; name a folder")
    _check_flags(args)
    folder = Path(args.out_dir)
    # results files scattered into the home folder (or above it) mix with everything else there
    check_place(folder, environ=environ, data_folders=guarded_data_folders())
    taken: set = set()
    paths = [folder / file_name(p, m, taken) for p, m, _ in chosen]
    check_outputs([*(("--out-dir", p) for p in paths), ("--markdown", args.markdown), ("--html", args.html)],
                  suite_inputs(args), makes_folders=True)                       # refuse before anything is sent
    check_writable(paths, force=None, flag="--out-dir")
    bundle = load_suite_files(suite=args.suite, tools=args.tools)
    prepared = []
    for (provider, model, url), path in zip(chosen, paths):
        stderr.write(printable(f"toolproof: model {len(prepared) + 1} of {len(chosen)}: results to {path}") + "\n")
        one = argparse.Namespace(**{**vars(args), "provider": provider, "model": model, "base_url": url,
                                    "out": str(path), "markdown": None, "html": None})
        prepared.append(prepare(one, bundle, environ, stderr))
    held = _held(folder, environ)
    try:
        return _run_all(args, prepared, held, stdout, stderr)
    finally:
        if held is not None:
            held.close()


def _run_all(args: argparse.Namespace, prepared: list, held: HeldFolder | None, stdout: TextIO,
             stderr: TextIO) -> int:
    """Each model in turn, then the board of every file written; the worst exit code."""
    if held is not None:
        for one in prepared:
            one.args.out = held.path(Path(one.args.out).name)
    codes, written = [], []
    for one in prepared:
        code, card = execute(one, stdout, stderr, show_card=False)
        codes.append(code)
        written.append(one.args.out)
        score = "no score" if card["score"] is None else f"score {card['score']:.2f}"
        one.say(f"toolproof: {one.args.provider} / {one.args.model}: {score}, "
                f"{card['coverage']['graded']} of {card['coverage']['planned']} graded, exit {code}; {one.args.out}")
        if code == 130:                # Ctrl-C stops every model, not only the one in flight
            break
    board = board_of(written, suite=args.suite, tools=args.tools, allow_mixed=False,
                     read=(lambda path: held.read_json(path.name)) if held is not None else read_json)
    stdout.write(render(board, "json" if args.format == "json" else "text"))
    if args.markdown:
        write_text(args.markdown, render(board, "markdown"), "--markdown")
    if args.html:
        write_text(args.html, render(board, "html"), "--html")
    return max(codes, key=SEVERITY.index)
