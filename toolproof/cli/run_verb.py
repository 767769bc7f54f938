"""`python -m toolproof run`: the verb's face, its flags (live.add_parser) and `handle`, which
chooses between one model (live.py: `prepare`, then `execute`) and several (models.py).

It sits above both so the arrows run one way: run_verb -> models -> live. (Before, `handle` lived
in live.py and imported models.py, which imports live.py: a circle hidden inside a function.)
An edge; it holds no rule of its own: the flags, the key and the run are live.py's.
"""
from __future__ import annotations

import argparse
from typing import TextIO

from toolproof.datafiles import load_suite_files

from .files import check_outputs, check_writable
from .flags import report_outputs, suite_inputs
from .live import add_parser, execute, prepare
from .models import run_models, targets

__all__ = ["add_parser", "handle"]


def handle(args: argparse.Namespace, stdout: TextIO, stderr: TextIO, environ: dict) -> int:
    chosen = targets(args)
    if len(chosen) > 1 or args.out_dir is not None:     # several models: one results file each, then the board
        return run_models(args, chosen, stdout, stderr, environ)
    args.provider, args.model, args.base_url = chosen[0]
    check_outputs([("--out", args.out), *report_outputs(args)], suite_inputs(args))     # before anything is sent
    if args.out:                     # an earlier run's results are not replaced by typing the command again
        check_writable([args.out], force=args.force, flag="--out")
    bundle = load_suite_files(suite=args.suite, tools=args.tools)
    return execute(prepare(args, bundle, environ, stderr), stdout, stderr)[0]
