"""The page's world-file loader (#own-world in "Your tools and cases"): a world file chosen is read
under the one size bound, checked as `suite validate FILE` checks it (the world loaded by
worlds/load.py, then every gold and wrong path replayed through grading/scenario_paths.py), and
shown as one line per problem, or one line saying it holds; a world that holds is offered to the
run form as Scenarios scopes (`scenarios:<world>`).

An edge module (DOM, files). It decides nothing: the checks and their words are the terminal's
(`world_check`); world text is hostile input and only ever reaches the page as textContent.
"""
from __future__ import annotations

import asyncio

from .dom import byid, clear, el, on, task
from toolproof.plurals import counted


def world_check(text: str, source: str):
    """(world, checks): the file as `suite validate` reads it (worlds/load.world_from_text: one
    ToolProofError line naming the file and the JSON path), then every gold and wrong path
    replayed (grading/scenario_paths.check_paths: one PathCheck, and its line, per path)."""
    from toolproof.datafiles import check_world_name
    from toolproof.grading.scenario_paths import check_paths
    from toolproof.worlds.load import world_from_text

    world = world_from_text(text, source)
    check_world_name(world, source)              # <id>.json, as suite validate and --worlds require
    return world, check_paths(world)


class WorldFileView:
    """The world-file loader. `offer(world | None)` hands a world that holds to the run form."""

    def __init__(self, offer, load_jsonschema):
        self.offer, self.load_jsonschema = offer, load_jsonschema
        self.loading = asyncio.Lock()       # one file at a time, in the order chosen: the last wins
        on(byid("own-world"), "change", lambda e: task(self.load(e.target.files), self.failed))
        byid("own-world-box").dataset.state = "empty"

    def show(self, head: str, problems: list[str], state: str, paths: list[str] = ()) -> None:
        """The head line; each problem in view (#own-world-lines); the lines of a world that holds,
        one per path replayed, folded (#own-world-paths)."""
        message = byid("own-world-message")
        message.textContent = head
        message.className = "run-message" + (" bad" if state == "error" else "")
        for listing, lines in ((byid("own-world-lines"), problems), (byid("own-world-path-lines"), paths)):
            clear(listing)
            for line in lines:
                listing.appendChild(el("li", line, cls="world-line"))
        byid("own-world-lines").hidden = not problems
        byid("own-world-paths").hidden = not paths
        byid("own-world-paths-summary").textContent = f"The {counted(len(paths), 'path')} replayed"
        byid("own-world-box").dataset.state = state

    def failed(self, line: str) -> None:
        """Anything that raised: one line, and the loader answers the next file."""
        self.show(line, [], "error")

    async def load(self, files) -> None:
        from toolproof.authoring.draft import too_large
        from toolproof.errors import ToolProofError, failure_line

        if not files.length:
            return
        file = files.item(0)
        name = str(file.name)
        async with self.loading:
            byid("own-world-box").dataset.state = "loading"
            if too_large(name, int(file.size)):
                self.offer(None)
                self.failed(too_large(name, int(file.size)))
                return
            self.show(f"Reading {name} and replaying its paths…", [], "loading")
            await asyncio.sleep(0.01)        # the line is shown before the replay
            try:
                text = str(await file.text())
                try:
                    world, checks = world_check(text, name)
                except ModuleNotFoundError as exc:      # a tool schema needs jsonschema: fetched, then again
                    if (exc.name or "").split(".")[0] != "jsonschema":
                        raise
                    await self.load_jsonschema()
                    world, checks = world_check(text, name)
            except ToolProofError as exc:
                self.offer(None)
                self.failed(exc.line())
                return
            except Exception as exc:         # noqa: BLE001 - never a traceback: one line naming the file
                self.offer(None)
                self.failed(f"{name}: could not be checked ({failure_line(exc)})")
                return
            bad = [c.line for c in checks if not c.holds]
            if bad:
                self.offer(None)
                self.show(f"{name}: {len(bad)} of {counted(len(checks), 'path')} {'does' if len(bad) == 1 else 'do'} "
                          "not hold, so its scenarios are not offered:", bad, "error")
                return
            self.offer(world)
            self.show(f"{name}: world “{world.title}” holds: {counted(len(world.scenarios), 'scenario')}, "
                      f"{counted(len(checks), 'path')} replayed, every gold path passes and every wrong path "
                      f"fails as it says. Run it above with the scope “Scenarios: {world.title}”.",
                      [], "ok", [c.line for c in checks])
