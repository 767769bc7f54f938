"""docs/grading.md lists the words every answer rule reads, per language: the block between its
lexicon markers is generated from toolproof/grading/answer_lexicon.py, answer_claim_words.py and
answer_value_words.py,
and this test keeps the two equal. After changing the lexicon, rewrite the block with

    python tests/grading/test_answer_docs.py --write
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from toolproof.grading import answer_claim_words as cw  # noqa: E402
from toolproof.grading import answer_ask_words as aw  # noqa: E402
from toolproof.grading import answer_lexicon as lex  # noqa: E402
from toolproof.grading import answer_text  # noqa: E402
from toolproof.grading import answer_value_words as vw  # noqa: E402

DOC = ROOT / "docs" / "grading.md"
START, END = "<!-- answer-lexicon:start -->", "<!-- answer-lexicon:end -->"

# (what the words do, the lexicon list): per-language lists get a column each.
ROWS = [
    ("negation: denies what follows in its clause (also any word ending in n't)", lex.NEGATION),
    ("narrow negation: denies the three words after it", lex.NARROW_NEGATION),
    ("verbs a narrow negation does not reach past", lex.NARROW_ENDS),
    ("condition: leaves what follows open (Portuguese \"se\" at a clause's start)", lex.CONDITION),
    ("future, modal, offer: leaves what follows open (also 'll, 'd)", lex.OPEN),
    ("hedge: leaves what follows open, but a banned item under it fires", lex.HEDGES),
    ("futures: in a free-text argument a required phrase under one is stated", lex.FUTURES),
    ("a bare no opening a reply: denies what the user's question asked (a {\"not\": item})", lex.BARE_NO),
    ("clause breaks: polarity does not cross them (nor , ; : and dashes)", lex.CLAUSE_BREAKS),
    ("reporting: what follows is someone else's words, not a claim", lex.REPORTING),
    ("question words: the clause of a question that asks", lex.QUESTION_WORDS),
    ("requests: ask the user without a question mark", aw.REQUESTS),
    ("saying what is missing: the question after it asks for what it names", aw.LACKS),
    ("days named relative to today: a date picked (asks_for `date`)", aw.RELATIVE_DAYS),
    ("examples: a value after them is offered, not picked", aw.EXAMPLES),
    ("kinds of account: one named in a statement or a yes/no question is picked (asks_for `account`)", aw.ACCOUNT_KINDS),
    ("claims, first person past (after I or we in English)", cw.DONE_PAST | {
        k: v for k, v in cw.DONE_FIRST_PERSON.items() if v}),
    ("claims, just done: then a verb in the infinitive", cw.JUST_DID),
    ("claims of looking (only where no tool result was read)", cw.LOOKED | {
        k: v for k, v in cw.LOOKED_FIRST_PERSON.items() if v}),
    ("claims of looking, participles (only where no tool result was read)", cw.LOOKED_PARTICIPLE),
    ("working out: never a claim, and wins over a claim word it starts with (\"added\")", cw.WORKED_OUT),
    ("claims, perfect passive auxiliaries", cw.PERFECT_PASSIVE),
    ("claims, simple passive auxiliaries (only where no tool result is reported)", cw.SIMPLE_PASSIVE),
    ("claims, participles of actions", cw.DONE_PARTICIPLE),
    ("claims, participles of states (only where no tool result is reported)", cw.STATE_PARTICIPLE),
    ("claims, a clause of its own (only where no tool result is reported)", cw.DONE_ALONE),
    ("honest declines", lex.DECLINES),
    ("honest declines said impersonally", lex.IMPERSONAL_DECLINES),
    ("declines only in a sentence naming the assistant's tools", lex.TOOL_DECLINES),
    ("the assistant's tools (for the row above)", lex.DECLINE_TOOL_WORDS),
    ("declines when a negation follows in the sentence (\"I can only cancel, not reschedule\")", lex.ONLY_DECLINES),
    ("a reason follows (grounded: its kind must be one the result gives)", lex.BECAUSE),
    ("contents verbs: stated of an id or an order where no tool read it, they invent it", lex.CONTAINS),
    ("orders and the like a contents verb is stated of", lex.RECORDS),
    ("warnings", lex.WARNINGS),
    ("cautions (warnings too)", lex.CAUTIONS),
    ("negations before a first-person verb of acting (warnings: \"não o fiz\", \"no lo hice\")", lex.WARNING_NEGATIONS),
    ("premises: a passive after them opening its clause echoes a fact, no claim", cw.PREMISES),
    ("past times: a passive in their clause echoes a fact, no claim", cw.PAST_TIMES),
    *[(f"asks_for `{name}`", words) for name, words in aw.DETAILS.items()],
    ("numbers in words", {lang: tuple(table) for lang, table in vw.NUMBER_WORDS.items()}),
    ("months", vw.MONTHS),
    ("weekdays", vw.WEEKDAYS),
]
SHARED = [
    ("English subjects of a first-person claim", cw.FIRST_PERSON),
    ("adverbs between a subject and its verb", cw.PERFECT_AUX + cw.WENT_AHEAD),
    ("adverbs that make a passive a further claim after a tool result", cw.JUST_DONE),
    ("Spanish perfect auxiliaries", cw.SPANISH_PERFECT),
    ("English words that carry a first-person subject to the next verb", cw.AND_THEN),
    ("verbs of telling after \"I can\" (not an offer)", lex.TELLING),
    ("object pronouns between a warning's negation and its verb", lex.WARNING_CLITICS),
    ("first-person verbs of acting after a warning's negation", lex.WARNING_VERBS),
    ("after I or we: the verbs \"and\" carries are a plan, not a claim", cw.MODALS),
    ("a preposition ending the clause after a participle: a relative clause, not a claim", cw.STRANDED),
    ("fillers: before a colon and more words, no claim (\"Pronto: …\")", cw.FILLERS),
    ("people counted: a number before one is a party size picked (asks_for `quantity`)", aw.PEOPLE),
    ("a question's one question word that names the detail asked (the amount, not the account, in \"¿cuánto dinero…a la cuenta?\")",
     tuple(f"{w} ({d})" for w, d in aw.QUESTION_FOCUS.items())),
    ("a question's last clause opening so offers an alternative: the clauses before it ask too", answer_text.ALTERNATIVES),
    ("afternoon and evening (a time is pm)", vw.AFTERNOON),
    ("morning (a time is am)", vw.MORNING),
    ("noon and midnight", vw.NOON + vw.MIDNIGHT),
    ("before a bare hour that makes it a time", vw.AT_HOUR),
    ("after a bare hour that makes it a time", vw.HOUR_WORDS),
    ("after a bare hour after \"at\" that keep it a time (another word in lowercase makes it a count)",
     vw.AFTER_TIME),
    ("between a negation and a value that it still denies", lex.VALUE_FILLERS),
    ("limits: a negation before them bounds a value, it does not deny it", lex.VALUE_LIMITS),
    ("abbreviations whose dot ends no sentence", lex.ABBREVIATIONS),
    *[(f"reasons of the kind `{kind}` (all languages)", words) for kind, words in lex.REASONS.items()],
]


def _cell(words) -> str:
    return ", ".join(f"`{w}`" for w in words) or "—"


def lexicon_markdown() -> str:
    lines = [START, "", "| words that | English | Portuguese | Spanish |", "|---|---|---|---|"]
    for label, lists in ROWS:
        lines.append(f"| {label} | " + " | ".join(_cell(lists.get(lang, ())) for lang in lex.LANGUAGES) + " |")
    lines += ["", "| words (every language) that | |", "|---|---|"]
    for label, words in SHARED:
        lines.append(f"| {label} | {_cell(words)} |")
    lines += ["", END]
    return "\n".join(lines)


def _block(text: str) -> str:
    start, end = text.index(START), text.index(END) + len(END)
    return text[start:end]


def test_the_docs_list_the_lexicon():
    assert _block(DOC.read_text(encoding="utf-8")) == lexicon_markdown(), (
        "docs/grading.md's lexicon tables differ from the lexicon: "
        "run python tests/grading/test_answer_docs.py --write")


if __name__ == "__main__" and "--write" in sys.argv:
    text = DOC.read_text(encoding="utf-8")
    DOC.write_text(text.replace(_block(text), lexicon_markdown()), encoding="utf-8")
    print("wrote the lexicon tables of docs/grading.md")
