from toolproof.plurals import counted, plural


def test_singular_only_for_exactly_one():
    assert counted(1, "case") == "1 case"
    assert counted(0, "case") == "0 cases"
    assert counted(2, "point") == "2 points"
    assert counted(1.5, "point") == "1.5 points"
    assert counted(1, "reply", "replies") == "1 reply"
    assert counted(3, "reply", "replies") == "3 replies"
    assert plural(1, "request") == "request"
