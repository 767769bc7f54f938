"""The one-to-one pairing that earns most: the assignment problem, solved exactly.

Used by the grader for cases whose expected calls may come in any order (parallel calls): each
expected call is paired with at most one actual call so that the summed pair scores are as high
as possible. The Hungarian method (Kuhn-Munkres, O(n^2 m)) keeps this polynomial however many
calls a reply holds, where trying every order would not end.

Pure: no I/O.
"""
from __future__ import annotations


def best_assignment(scores: list[list[int]]) -> list[int | None]:
    """For each row, the column it is paired with (None when there are fewer columns than
    rows and it got none), maximising the sum of scores[row][column]. Ties go the same way for
    the same input."""
    rows = len(scores)
    columns = max((len(r) for r in scores), default=0)
    if rows == 0:
        return []
    width = max(columns, rows)              # padding columns score 0: "paired with nothing"
    top = max((v for r in scores for v in r), default=0)
    cost = [[top - (r[j] if j < len(r) else 0) for j in range(width)] for r in scores]
    return [j if j is not None and j < columns else None for j in _hungarian(cost)]


def _hungarian(cost: list[list[int]]) -> list[int | None]:
    """Minimum-cost assignment of n rows to m >= n columns (potentials method)."""
    n, m = len(cost), len(cost[0])
    inf = float("inf")
    u, v = [0] * (n + 1), [0] * (m + 1)
    owner, way = [0] * (m + 1), [0] * (m + 1)      # owner[j]: row (1-based) holding column j
    for row in range(1, n + 1):
        owner[0], j0 = row, 0
        least, used = [inf] * (m + 1), [False] * (m + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = owner[j0], inf, 0
            for j in range(1, m + 1):
                if used[j]:
                    continue
                reduced = cost[i0 - 1][j - 1] - u[i0] - v[j]
                if reduced < least[j]:
                    least[j], way[j] = reduced, j0
                if least[j] < delta:
                    delta, j1 = least[j], j
            for j in range(m + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    pairs: list[int | None] = [None] * n
    for j in range(1, m + 1):
        if owner[j]:
            pairs[owner[j] - 1] = j - 1
    return pairs
