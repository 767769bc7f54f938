"""answer_patterns finds phrases and lexicon entries in a reply of up to LONG_REPLY characters
without compiling anything, and in a longer one with the regular expressions that define what is
found (a phrase's pattern, the alternation of the entries whose first word the reply uses). The two
ways must find the same places: every search the grader makes while grading the fixtures and the
further replies is made both ways, as are searches of generated replies full of apostrophes ("can't"
holds "can", which is not a word of a reply that only says "can't"), hyphens, long words and long
gaps. Each expression passes toolproof.suite.regex_safety, as the grader's patterns must."""
from __future__ import annotations

import json

import pytest
from pathlib import Path

from hypothesis import given, settings, strategies as st

from toolproof.datafiles import format_schema, load_suite_files
from toolproof.grading import (answer_acts, answer_asks, answer_contents, answer_grounded, answer_patterns,
                               answer_polar, answer_reasons, answer_rules, answer_times, answer_values)
from toolproof.grading.answer_acts import lexicon
from toolproof.grading.answer_text import Reading
from toolproof.suite import regex_safety
from toolproof.grading.grade import grade_case
from toolproof.grading.transcripts import known_ids, parse_transcripts
from toolproof.suite.model import phrased

ROOT = Path(__file__).resolve().parent.parent.parent
BUNDLE = load_suite_files()
CASES = {c.id: c for c in BUNDLE.cases}


def per_reply(reading, entries, start=0, end=None) -> list[tuple[int, int]]:
    """The places the alternation of the reply's entries finds."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(answer_patterns, "LONG_REPLY", -1)
        return [m.span() for m in answer_patterns.entry_matches(reading, entries, start, end)]


def found(reading, entries, start=0, end=None) -> list[tuple[int, int]]:
    """The places the walk finds."""
    assert len(reading.norm) <= answer_patterns.LONG_REPLY
    return [m.span() for m in answer_patterns.entry_matches(reading, entries, start, end)]


def phrase_places(reading, phrase: str, loose: bool = False) -> list[tuple[int, int]]:
    """The places the phrase's pattern finds, at a word's start, at most MAX_FOUND."""
    pattern = answer_patterns.phrase_pattern(phrase, loose)
    if pattern is None:
        return []
    norm = reading.norm
    found = (m for m in pattern.finditer(norm) if not (m.start() and norm[m.start() - 1].isalnum()))
    return [m.span() for m, _ in zip(found, range(answer_patterns.MAX_FOUND))]


def graded_searches(monkeypatch) -> tuple[list, list]:
    """Every search of a lexicon list and of a phrase made while grading data/fixtures.json and
    tests/fixtures/more_replies.json."""
    entry_calls, phrase_calls = [], []
    real_entries, real_phrase = answer_patterns.entry_matches, answer_patterns.find_phrase

    def entries_recorded(reading, entries, start=0, end=None):
        entry_calls.append((reading, tuple(entries), start, end))
        return real_entries(reading, entries, start, end)

    def phrase_recorded(reading, phrase, loose=False):
        phrase_calls.append((reading, phrase, loose))
        return real_phrase(reading, phrase, loose)

    for module in (answer_patterns, answer_times, answer_values, answer_asks):
        monkeypatch.setattr(module, "entry_matches", entries_recorded)
    for module in (answer_times, answer_grounded, answer_contents, answer_rules, answer_polar, answer_reasons):
        monkeypatch.setattr(module, "find_phrase", phrase_recorded)
    for path in (ROOT / "data" / "fixtures.json", ROOT / "tests" / "fixtures" / "more_replies.json"):
        doc = json.loads(path.read_text(encoding="utf-8"))
        runs = parse_transcripts(doc, format_schema("transcripts"), known_ids(BUNDLE.cases))
        for transcripts in runs.all_repeats().values():
            for tr in transcripts:
                if tr.case_id in CASES:
                    grade_case(phrased(CASES[tr.case_id], tr.phrasing), BUNDLE.tools, tr)
    return entry_calls, phrase_calls


@pytest.fixture(scope="module")
def searches():
    with pytest.MonkeyPatch.context() as patch:
        return graded_searches(patch)


def test_every_lexicon_search_the_grader_makes_finds_what_the_per_reply_alternation_finds(searches):
    calls = searches[0]
    assert len(calls) > 1000
    differ = [(r.norm[:80], e[:3], s, t) for r, e, s, t in calls if found(r, e, s, t) != per_reply(r, e, s, t)]
    assert differ == []
    # and they found something: the comparison is not one of empty lists
    assert sum(bool(per_reply(r, e, s, t)) for r, e, s, t in calls) > 200


def test_every_phrase_search_the_grader_makes_finds_what_the_phrase_pattern_finds(searches):
    calls = searches[1]
    assert len(calls) > 1000
    differ = [(r.norm[:80], p, loose) for r, p, loose in calls
              if answer_patterns.find_phrase(r, p, loose) != phrase_places(r, p, loose)]
    assert differ == []
    assert sum(bool(phrase_places(r, p, loose)) for r, p, loose in calls) > 200
    assert any(loose for _, _, loose in calls) and any(not loose for _, _, loose in calls)


WORDS = ["can", "can't", "cannot", "it", "it's", "i", "i'm", "i've", "don't", "do", "not", "won't",
         "have", "has", "sent", "done", "don", "t", "s", "ve", "não", "posso", "no", "puedo", "he",
         "enviado", "já", "ya", "the", "booked", "já-está", "o'clock", "six", "seis", "twenty-one",
         "b" * 30 + "'s", "b" * 31 + "'s", "do" + "x" * 40, "do" + "x" * 41, "_can", "can_", "3"]
SEPARATORS = [" ", "  ", "-", ", ", ". ", "'", " '", "' ", "\n", "? ", " - ", "    ", "     ", "--- ", "\u00a0"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), min_size=1, max_size=14),
       st.sampled_from(["en", "pt", "es"]), st.integers(0, 20), st.integers(0, 30))
def test_generated_replies_with_apostrophes_find_the_same(pieces, lang, start, length):
    reading = Reading("".join(w + s for w, s in pieces))
    words = lexicon(lang)
    lists = [words.declines, words.first_person, words.negations, words.done_first, words.active,
             (("can",), ("can't",), ("it", "is"), ("it's",), ("i",), ("i", "can"), ("don", "t"), ("'s", "not"),
              ("do*",), ("have", "sent"), ("já",), ("s",), ("t",), ("ve", "sent"), ("'ve", "sent"), ("can", "t"), ("o'clock",), ("o",), ("six", "o'clock"))]
    for entries in lists:
        assert found(reading, entries) == per_reply(reading, entries)
        end = min(len(reading.norm), start + length)
        assert found(reading, entries, min(start, end), end) == per_reply(reading, entries, min(start, end), end)


PHRASE_WORDS = ["ord", "482913", "ord-482913", "rua", "das", "flores", "28", "c", "3", "5", "enviad", "enviados",
                "a", "b", "b" * 40, "x_y", "zürich", "€", "20"]
PHRASE_GAPS = [" ", "-", ", ", ".", "/", " / ", "--", "-/", " - ", "++", "", "  ", "#", "%", "'", " -, "]


@pytest.mark.parametrize("text, phrase, loose", [
    ("unshipped shipped", "shipped", False), ("ba a", "a", False), ("xORD-1 ORD-1", "ORD-1", False),
    ("ORD-12 ORD - 1", "ORD-1", False), ("rua das flores,28", "Rua das Flores, 28", False),
    ("rua das flores -,- 28", "Rua das Flores, 28", False), ("rua das flores 28", "Rua das Flores, 28", True),
    ("a--/ -/b a-/b", "a-/b", False), ("c++ c+ c", "C++", False), ("enviados reenviado", "enviad*", False),
    ("#42 # 42 #420", "#42", False), ("20% 20 %", "20%", False), ("aaaa", "a", False), ("a_b a b", "a_b", False),
])
def test_phrases_in_awkward_places_are_found_as_the_pattern_finds_them(text, phrase, loose):
    reading = Reading(text)
    assert answer_patterns.find_phrase(reading, phrase, loose) == phrase_places(reading, phrase, loose)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(PHRASE_GAPS), st.sampled_from(PHRASE_WORDS)), min_size=1, max_size=6),
       st.lists(st.tuples(st.sampled_from(PHRASE_WORDS), st.sampled_from(PHRASE_GAPS + ["*"])), min_size=1, max_size=4),
       st.sampled_from(PHRASE_GAPS), st.booleans())
def test_generated_phrases_find_the_same(text_pieces, phrase_pieces, lead, loose):
    reading = Reading("".join(g + w for g, w in text_pieces) + " " + "".join(g + w for g, w in text_pieces[::-1]))
    phrase = lead + "".join(w + g for w, g in phrase_pieces)
    assert answer_patterns.find_phrase(reading, phrase, loose) == phrase_places(reading, phrase, loose)
    # and the phrase as the reply says it is found
    said = Reading("so " + phrase.rstrip("*") + " then")
    assert answer_patterns.find_phrase(said, phrase, loose) == phrase_places(said, phrase, loose)


# ---- the definitions never backtrack badly (toolproof/suite/regex_safety.py) ---------------------
def _definitions() -> list[str]:
    out = []
    for lang in ("en", "pt", "es"):
        words = lexicon(lang)
        for entries in (answer_acts._heads(words), words.declines, words.warnings, words.requests,
                        words.lacks, words.relative_days, words.impersonal, words.cautions,
                        words.tool_declines, words.tool_words, words.only_declines, words.negations,
                        words.warning_negations, words.premises, words.past_times, *words.details.values()):
            body = answer_patterns.alternatives(entries)
            out.append(answer_patterns.compiled(body).pattern if body else None)
    out += [answer_patterns.phrase_pattern(p, loose).pattern for p in ("shipped", "not found", "enviad*", "ORD-205577",
                                               "Rua das Flores, 28", "C++") for loose in (False, True)]
    return [p for p in out if p]


@pytest.mark.parametrize("pattern", _definitions(), ids=lambda p: p[:60])
def test_every_definition_is_safe(pattern, monkeypatch):
    monkeypatch.setattr(regex_safety, "MAX_PATTERN", 100_000)     # the lexicon's alternations are long
    assert regex_safety.unsafe_reason(pattern) is None


def test_punctuation_between_many_words_is_tried_once_per_place_in_any_reply():
    """A phrase whose words must be apart by "--" gives its pattern three ways to place each gap in
    "----": on a reply where it fails at the end, the pattern tries them all (3^30 here); the walk
    tries each place once, in a short reply and in a long one."""
    phrase = "a" + " -- a" * 30 + " x"
    for filler in ("", " b" * answer_patterns.LONG_REPLY):
        reading = Reading("a" + " ---- a" * 30 + " y" + filler)
        assert answer_patterns.find_phrase(reading, phrase) == []
        assert answer_patterns.find_phrase(Reading(reading.text + " a" + " - -- a" * 30 + " x"), phrase)


def test_a_long_phrase_on_a_short_reply_is_searched_in_c_and_finds_the_same():
    """2,000 words apart by " -/ " on a reply of 10,000 characters: the walk tried each of the
    2,000 places the first word is (3.8 s); the compiled pattern finds the same at once."""
    phrase = "a" + " -/ a" * 2000
    for text in ("a" + " -/ a" * 2000, "a" + " -/ a" * 2000 + " z", "b -/ " + phrase):
        reading = Reading(text)
        assert answer_patterns.find_phrase(reading, phrase + " z") == phrase_places(reading, phrase + " z")
        assert answer_patterns.find_phrase(reading, phrase) == phrase_places(reading, phrase)
