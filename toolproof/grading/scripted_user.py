"""The scripted user of a scenario: what the user says after each text answer of the model.

No second model plays the user (tau2-bench's maintainers trace up to 30% of failed trajectories to
their simulated user): the world file scripts every reply, and this module picks one, the same way
in the live run (running/scenario_run.py) and when a path or a transcript is replayed for grading
(grading/scenario_paths.py, scenario_grade.py). The rule, after a model turn with no calls:
- the text asks the user something (grading.answer_acts.asking_spans, read as the answer rule
  `asks_for` reads it; a closing offer such as "Anything else I can help with?" or "Let me know
  if you need anything else", within the first words of its sentence, asks nothing: real models
  end most answers so, and a scripted "yes" to it would confirm a write nobody asked for): the first reply not yet used whose `asks_for` names a detail asked
  (answer_asks.details_in), or whose `asks_for` is empty (any question), is sent; none fits ->
  the `fallback` (no fallback: the conversation is over; it answers offers of more too, "Would you
  like me to book one of them?", so a read-only task's fallback declines). Asked again right after
  the fallback, the user has nothing more to say and the conversation is over: a model that ends
  every answer with a question the script does not foresee is graded on what it did, not cut at
  the turn limit;
- the text asks nothing: the next `then` entry not yet sent (a later turn, such as a change of
  mind); none left -> the conversation is over.
A reply is used at most once. The turn limit is the runner's, not this module's.

`history_so_far` is what the user has said so far after the model's earlier text answers (the
`UserTurn`s, oldest first; None for a turn nobody answered): only which replies and `then`
entries were used counts, so a transcript's recorded `user` entries (UserTurn.from_json) replay
to the same choice.

Pure: no I/O, deterministic. Must not read the model's calls or the world: only the text.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from .answer_acts import asking_spans, entries
from .answer_asks import details_in
from .answer_patterns import find_entries
from .answer_text import Reading

CLOSING_LEAD = 6        # words a closing offer may follow in its sentence ("Feel free to let me know if...")
# Closing offers: a question or request that only offers more help once the task is answered. An
# asking clause holding one of these asks the user nothing a scripted reply could answer.
CLOSINGS = {
    "en": ("anything else", "something else", "any other questions", "any other question",
           "anything more", "what else can i", "what else may i", "any other requests", "any other request", "more i can do",
           "more help", "further help", "other way i can help",
           "any further questions", "any more questions", "if you need anything", "if you need any",
           "if there's anything", "if there is anything", "if you have any questions",
           "if you have any other", "if you have any further", "if you have any more",
           "further assistance", "help with anything", "help you with anything", "other questions"),
    "pt": ("mais alguma coisa", "algo mais", "mais algum", "mais ajuda", "mais algo", "se precisar de", "se precisares de",
           "qualquer outra", "em que mais", "outra coisa", "outras dúvidas", "outra dúvida",
           "mais alguma dúvida", "mais alguma questão"),
    "es": ("algo más", "alguna otra", "más ayuda", "qué más puedo", "cualquier otra", "si necesitas", "si necesita",
           "en qué más", "otra cosa", "otras dudas", "otra duda", "otra pregunta", "otras preguntas"),
}


@dataclass(frozen=True, slots=True)
class UserTurn:
    """One thing the scripted user says: its text, whether it confirms a write (policy
    `confirm_before`), and which scripted entry it is: `reply_index` into `user.replies`,
    `then_index` into `user.then`, both None for the fallback."""
    text: str
    confirms: bool = False
    reply_index: int | None = None
    then_index: int | None = None

    def to_json(self) -> dict:
        """As a transcript turn's `user` entry: {"say", "confirms", and "reply" or "then"}."""
        out: dict[str, Any] = {"say": self.text, "confirms": self.confirms}
        if self.reply_index is not None:
            out["reply"] = self.reply_index
        elif self.then_index is not None:
            out["then"] = self.then_index
        else:
            out["fallback"] = True
        return out

    @staticmethod
    def from_json(raw: Any) -> "UserTurn | None":
        """A transcript's `user` entry read back (None when absent or not an object); indices
        that are not whole numbers read as absent."""
        if not isinstance(raw, dict):
            return None

        def index(key: str) -> int | None:
            value = raw.get(key)
            return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None
        say = raw.get("say")
        return UserTurn(say if isinstance(say, str) else "", raw.get("confirms") is True,
                        index("reply"), index("then"))


def asked(text: str) -> tuple[bool, frozenset]:
    """(does the text ask the user anything, the details its asking clauses mention)."""
    reading = Reading(text or "")
    closings = entries(CLOSINGS, reading.lang)
    spans = [(start, end) for start, end in asking_spans(reading) if not _leads(reading, closings, start, end)]
    return bool(spans), frozenset(d for start, end in spans for d in details_in(reading, start, end))


def _leads(reading: Reading, words: tuple, start: int, end: int, lead: int = CLOSING_LEAD) -> bool:
    """Does one of `words` stand in the asking clause at start..end (or in the sentence it is in:
    "If you have any other questions, just let me know"), within its first `lead` words? Further
    in, it is part of a real question ("Would you like me to send 875 EUR now, or is there
    anything else you'd like to change first?")."""
    low, high = reading.sentence_span(start)
    low = min(low, start)
    for at, _ in find_entries(reading, words, low, max(high, end), most=4):
        # counted from the clause's start (a list's last line and the offer can share a sentence),
        # or from the sentence's for words before a request ("If you have any questions, just ask")
        if len(reading.words_near(start if at >= start else low, at)) <= lead:
            return True
    return False


def next_user_message(scenario: Any, text: str, history_so_far: Iterable[UserTurn | None] = ()) -> UserTurn | None:
    """What the user says after the model's text answer `text`, or None: the conversation is over.
    `scenario` is a worlds.model.Scenario (or a mapping of the world file's shape)."""
    script = _field(scenario, "user")
    history = list(history_so_far)
    sent = [turn for turn in history if turn is not None]
    asks, details = asked(text)
    if asks:
        used = {turn.reply_index for turn in sent}
        for i, reply in enumerate(_field(script, "replies") or ()):
            wanted = tuple(_field(reply, "asks_for") or ())
            if i not in used and (not wanted or details.intersection(wanted)):
                return UserTurn(_text(reply), _field(reply, "confirms") is True, reply_index=i)
        fallback = _field(script, "fallback")
        if history and _is_fallback(history[-1]):
            return None         # asked again right after the fallback: the user has nothing more to say
        return UserTurn(fallback) if isinstance(fallback, str) and fallback else None
    later = tuple(_field(script, "then") or ())
    used_then = {turn.then_index for turn in sent}
    for i, entry in enumerate(later):
        if i not in used_then:
            return UserTurn(_text(entry), _field(entry, "confirms") is True, then_index=i)
    return None


def _is_fallback(turn: UserTurn | None) -> bool:
    return turn is not None and turn.reply_index is None and turn.then_index is None


def first_message(scenario: Any) -> str:
    """The user's opening message."""
    return _text(_field(scenario, "user"), "first")


def _text(entry: Any, name: str = "say") -> str:
    value = _field(entry, name)
    return value if isinstance(value, str) else ""


def _field(thing: Any, name: str) -> Any:
    if isinstance(thing, dict):
        return thing.get(name)
    return getattr(thing, name, None)
