"""The run form's Scenarios scope: the `#scope` options `scenarios` and `scenarios:<world>` (the
bundled worlds, then any world file the user loaded), their need (each scenario's turn limit, by
the runner's own rule), and the need line when one is chosen.

A helper of page/runform.py (no panel): it keeps the worlds and the option nodes; the words are
reports/scenario_form.py's and the need the runner's (running/scenario_run.py). An edge module (DOM).
"""
from __future__ import annotations

from .dom import el


def runner_need(worlds: dict, scope: str, repeats: int) -> int:
    """Requests a Scenarios run of `scope` needs at most, no retries: the runner's own count
    (running/scenario_run.py), never a second copy of it here."""
    from toolproof.running.scenario_run import scenario_need

    return scenario_need(worlds, scope, repeats=repeats)


class ScenarioScope:
    """The Scenarios options of one `<select id="scope">`."""

    def __init__(self, select, worlds: dict):
        self.select = select
        self.bundled = dict(worlds)        # world id -> World, as datafiles.bundled_worlds reads them
        self.loaded: dict = {}             # the user's world files (#own-world), by id: they win a clash
        self.nodes: dict = {}              # value -> <option>
        self.texts: dict = {}              # value -> the text it shows

    @property
    def worlds(self) -> dict:
        return {**self.bundled, **self.loaded}

    def need(self, scope: str, repeats: int) -> int:
        worlds = self.worlds
        try:
            return runner_need(worlds, scope, repeats)
        except Exception:                # noqa: BLE001 - an option that is gone (a world withdrawn): nothing to send
            return 0

    def options(self, repeats: int) -> list[tuple[str, str, int]]:
        from toolproof.reports.scenario_form import scenario_options

        return scenario_options(self.worlds, lambda scope: self.need(scope, repeats), frozenset(self.loaded))

    def draw(self, repeats: int) -> dict:
        """Add, relabel or remove the options so they match the worlds; returns value -> need."""
        from toolproof.reports.page_view import scope_option_text

        wanted = self.options(repeats)
        values = [value for value, _, _ in wanted]
        for value in list(self.nodes):
            if value not in values:
                self.nodes.pop(value).remove()
                self.texts.pop(value, None)
        for value, label, need in wanted:
            if value not in self.nodes:
                self.nodes[value] = el("option", value=value, cls="scenario-option")
                self.select.appendChild(self.nodes[value])
            text = scope_option_text(label, need)
            if self.texts.get(value) != text:          # written only when it changes
                self.nodes[value].textContent = text
                self.texts[value] = text
        return {value: need for value, _, need in wanted}

    def need_line(self, scope: str, repeats: int, most: int) -> str:
        from toolproof.reports.scenario_form import scenario_need_text
        from toolproof.worlds.scope import scenarios_in

        return scenario_need_text(self.need(scope, repeats), most, len(scenarios_in(self.worlds, scope)), repeats)

    def load(self, world) -> None:
        """Offer a world the user loaded (or, with None, withdraw every loaded one)."""
        if world is None:
            self.loaded = {}
        else:
            self.loaded = {world.id: world}
