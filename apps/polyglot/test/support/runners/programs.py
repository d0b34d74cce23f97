# Runs Python programs one after another in this one interpreter, each from its file as `python <file>` would (as
# __main__), with its own environment (see ../in-one-process.ts for the plan and the markers).
import json
import os
import runpy
import sys
import traceback


def marker(stream, event):
    stream.write("\x1e" + json.dumps(event) + "\n")
    stream.flush()


with open(sys.argv[1], encoding="utf-8") as plan_file:
    plan = json.load(plan_file)

previous = {}
for program in plan["programs"]:
    for name in previous:
        os.environ.pop(name, None)
    os.environ.update(program["env"])
    previous = program["env"]
    marker(sys.stderr, {"start": program["name"]})
    marker(sys.stdout, {"start": program["name"]})
    error = ""
    sys.argv = [program["file"]]
    try:
        runpy.run_path(program["file"], run_name="__main__")
    except SystemExit as exit:
        if exit.code not in (None, 0):
            error = f"exited with {exit.code}"
    except BaseException:
        error = traceback.format_exc()
    sys.stdout.flush()
    marker(sys.stdout, {"end": program["name"], "ok": error == "", "error": error})
