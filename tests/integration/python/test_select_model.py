"""A randomized test holding SELECT to a small model of Cassandra 4.1's read
semantics.

A table with a composite partition key, two clustering columns (the second
descending), a static column and regular columns including a set gets random
INSERT / UPDATE / DELETE statements (cells, rows, clustering ranges,
partitions, set elements), each with an explicit and unique USING TIMESTAMP
drawn out of order so reconciliation is exercised; a Python model applies the
same writes. Then a few hundred random SELECTs, among the shapes Cassandra
accepts (partition key = / IN, token ranges, clustering prefix / slice / IN /
multi-column, filtering, LIMIT, PER PARTITION LIMIT, ORDER BY, DISTINCT) and
with random page sizes, must return exactly the model's rows in the model's
order. The seed is fixed; a failure prints the query.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Callable

from select_support import composite_token, fetch, int_bytes, ks, session  # noqa: F401

SEED = 20260126
WRITES = 400
QUERIES = 300

P1 = range(3)
P2 = ("a", "b")
C1 = range(5)
C2 = range(4)
TAGS = range(4)
PARTITIONS = [(p1, p2) for p1 in P1 for p2 in P2]
REGULAR = ("v", "w", "tags")


# --- the model -----------------------------------------------------------------------------------


@dataclasses.dataclass
class Cell:
    timestamp: int
    value: object  # None: a tombstone


@dataclasses.dataclass
class ModelRow:
    marker: int | None = None          # row marker timestamp (INSERT)
    deletion: int = -1                 # row tombstone
    cells: dict = dataclasses.field(default_factory=dict)           # "v"/"w" -> Cell
    tags_deletion: int = -1                                        # collection tombstone
    tags: dict = dataclasses.field(default_factory=dict)            # element -> Cell


@dataclasses.dataclass
class ModelPartition:
    deletion: int = -1
    static: Cell | None = None
    ranges: list = dataclasses.field(default_factory=list)  # (predicate on (c1, c2), timestamp)
    rows: dict = dataclasses.field(default_factory=dict)    # (c1, c2) -> ModelRow


def newer(cell: Cell | None, timestamp: int, value) -> Cell:
    """Cassandra's reconciliation: the higher timestamp wins; timestamps here are unique."""
    if cell is None or timestamp > cell.timestamp:
        return Cell(timestamp, value)
    return cell


class Model:
    def __init__(self):
        self.partitions = {pk: ModelPartition() for pk in PARTITIONS}

    def row(self, pk, ck) -> ModelRow:
        return self.partitions[pk].rows.setdefault(ck, ModelRow())

    # Writes.
    def write_cells(self, pk, ck, values: dict, timestamp: int, marker: bool):
        row = self.row(pk, ck)
        if marker:
            row.marker = max(row.marker or -1, timestamp)
        for column, value in values.items():
            if column == "s":
                part = self.partitions[pk]
                part.static = newer(part.static, timestamp, value)
            elif column == "tags":
                # A whole-set assignment deletes the old set just before writing the new one.
                row.tags_deletion = max(row.tags_deletion, timestamp - 1)
                for element in value:
                    row.tags[element] = newer(row.tags.get(element), timestamp, True)
            else:
                row.cells[column] = newer(row.cells.get(column), timestamp, value)

    def add_tags(self, pk, ck, elements, timestamp, present: bool):
        row = self.row(pk, ck)
        for element in elements:
            row.tags[element] = newer(row.tags.get(element), timestamp, True if present else None)

    def delete_cells(self, pk, ck, columns, timestamp):
        row = self.row(pk, ck)
        for column in columns:
            if column == "tags":
                row.tags_deletion = max(row.tags_deletion, timestamp)
            else:
                row.cells[column] = newer(row.cells.get(column), timestamp, None)

    def delete_static(self, pk, timestamp):
        part = self.partitions[pk]
        part.static = newer(part.static, timestamp, None)

    def delete_row(self, pk, ck, timestamp):
        row = self.row(pk, ck)
        row.deletion = max(row.deletion, timestamp)

    def delete_range(self, pk, predicate, timestamp):
        self.partitions[pk].ranges.append((predicate, timestamp))

    def delete_partition(self, pk, timestamp):
        part = self.partitions[pk]
        part.deletion = max(part.deletion, timestamp)

    # Reads.
    def static_value(self, pk):
        part = self.partitions[pk]
        if part.static is None or part.static.value is None or part.static.timestamp <= part.deletion:
            return None
        return part.static.value

    def live_rows(self, pk) -> dict:
        """(c1, c2) -> {"v", "w", "tags"} for every live row of the partition."""
        part = self.partitions[pk]
        out = {}
        for ck, row in part.rows.items():
            deleted = max([part.deletion, row.deletion] +
                          [ts for predicate, ts in part.ranges if predicate(ck)])
            values = {}
            for column in ("v", "w"):
                cell = row.cells.get(column)
                live = cell is not None and cell.value is not None and cell.timestamp > deleted
                values[column] = cell.value if live else None
            tags_deleted = max(deleted, row.tags_deletion)
            elements = sorted(e for e, cell in row.tags.items()
                              if cell.value is not None and cell.timestamp > tags_deleted)
            values["tags"] = tuple(elements) if elements else None
            marker_live = row.marker is not None and row.marker > deleted
            if marker_live or any(values[c] is not None for c in REGULAR):
                out[ck] = values
        return out


def clustering_order(ck):
    """The table's clustering order: c1 ascending, c2 descending."""
    return (ck[0], -ck[1])


def token_of(pk) -> int:
    return composite_token(int_bytes(pk[0]), pk[1].encode())


# --- random writes -------------------------------------------------------------------------------


def random_writes(rng: random.Random, session, table: str, model: Model) -> None:
    timestamps = rng.sample(range(10, WRITES * 100, 10), WRITES)  # unique, spaced, out of order
    for timestamp in timestamps:
        pk = rng.choice(PARTITIONS)
        ck = (rng.choice(C1), rng.choice(C2))
        where_pk = f"p1 = {pk[0]} AND p2 = '{pk[1]}'"
        where_row = f"{where_pk} AND c1 = {ck[0]} AND c2 = {ck[1]}"
        using = f"USING TIMESTAMP {timestamp}"
        kind = rng.choices(["insert", "update", "tags", "static", "delete_cells", "delete_row",
                            "delete_range", "delete_partition", "delete_static"],
                           weights=[30, 20, 10, 6, 8, 8, 8, 2, 2])[0]
        if kind in ("insert", "update"):
            values = {}
            if rng.random() < 0.7:
                values["v"] = rng.randrange(10)
            if rng.random() < 0.5:
                values["w"] = rng.choice("xyz")
            if rng.random() < 0.3:
                values["tags"] = set(rng.sample(TAGS, rng.randrange(3)))
            if rng.random() < 0.15:
                values["s"] = rng.randrange(5)
            if kind == "update" and set(values) <= {"s"}:
                # An UPDATE naming a row must set a regular column: Cassandra refuses clustering
                # restrictions on a statement that modifies only static columns.
                values["v"] = rng.randrange(10)
            if kind == "insert":
                names = ["p1", "p2", "c1", "c2", *values]
                literals = [str(pk[0]), f"'{pk[1]}'", str(ck[0]), str(ck[1]),
                            *(cql_literal(v) for v in values.values())]
                session.execute(f"INSERT INTO {table} ({', '.join(names)}) VALUES "
                                f"({', '.join(literals)}) {using}")
            else:
                sets = ", ".join(f"{c} = {cql_literal(v)}" for c, v in values.items())
                session.execute(f"UPDATE {table} {using} SET {sets} WHERE {where_row}")
            model.write_cells(pk, ck, values, timestamp, marker=kind == "insert")
        elif kind == "tags":
            elements = set(rng.sample(TAGS, rng.randrange(1, 3)))
            add = rng.random() < 0.6
            session.execute(f"UPDATE {table} {using} SET tags = tags {'+' if add else '-'} "
                            f"{cql_literal(elements)} WHERE {where_row}")
            model.add_tags(pk, ck, elements, timestamp, present=add)
        elif kind == "static":
            value = rng.randrange(5)
            session.execute(f"UPDATE {table} {using} SET s = {value} WHERE {where_pk}")
            model.write_cells(pk, ck, {"s": value}, timestamp, marker=False)
        elif kind == "delete_cells":
            chosen = rng.sample(REGULAR, rng.randrange(1, 3))
            session.execute(f"DELETE {', '.join(chosen)} FROM {table} {using} WHERE {where_row}")
            model.delete_cells(pk, ck, chosen, timestamp)
        elif kind == "delete_row":
            session.execute(f"DELETE FROM {table} {using} WHERE {where_row}")
            model.delete_row(pk, ck, timestamp)
        elif kind == "delete_range":
            shape = rng.randrange(3)
            if shape == 0:
                relation, predicate = f"c1 = {ck[0]}", (lambda c, x=ck[0]: c[0] == x)
            elif shape == 1:
                relation = f"c1 = {ck[0]} AND c2 > {ck[1]}"
                predicate = lambda c, x=ck: c[0] == x[0] and c[1] > x[1]  # noqa: E731
            else:
                relation, predicate = f"c1 >= {ck[0]}", (lambda c, x=ck[0]: c[0] >= x)
            session.execute(f"DELETE FROM {table} {using} WHERE {where_pk} AND {relation}")
            model.delete_range(pk, predicate, timestamp)
        elif kind == "delete_partition":
            session.execute(f"DELETE FROM {table} {using} WHERE {where_pk}")
            model.delete_partition(pk, timestamp)
        else:
            session.execute(f"DELETE s FROM {table} {using} WHERE {where_pk}")
            model.delete_static(pk, timestamp)


def cql_literal(value) -> str:
    if isinstance(value, set):
        return "{" + ", ".join(str(v) for v in sorted(value)) + "}"
    if isinstance(value, str):
        return f"'{value}'"
    return str(value)


# --- random queries ------------------------------------------------------------------------------


@dataclasses.dataclass
class Query:
    text: str
    expected: list
    fetch_size: int | None


def random_query(rng: random.Random, table: str, model: Model) -> Query:
    where: list[str] = []
    filtering = False
    # Partition key.
    pk_mode = rng.choices(["eq", "in", "none", "token", "partial"], weights=[30, 20, 30, 10, 10])[0]
    pk_filter: Callable = lambda pk: True  # noqa: E731
    if pk_mode == "eq":
        pk = rng.choice(PARTITIONS)
        where.append(f"p1 = {pk[0]} AND p2 = '{pk[1]}'")
        pk_filter = lambda p, x=pk: p == x  # noqa: E731
    elif pk_mode == "in":
        p1s = sorted(rng.sample(P1, rng.randrange(1, 3)))
        p2s = sorted(rng.sample(P2, rng.randrange(1, 3)))
        where.append(f"p1 IN ({', '.join(map(str, p1s[::-1]))}) "
                     f"AND p2 IN ({', '.join(repr(p) for p in p2s)})")
        pk_filter = lambda p, a=p1s, b=p2s: p[0] in a and p[1] in b  # noqa: E731
    elif pk_mode == "token":
        bounds = sorted(rng.sample([token_of(p) for p in PARTITIONS] + [0, -2**62, 2**62], 2))
        where.append(f"token(p1, p2) > {bounds[0]} AND token(p1, p2) <= {bounds[1]}")
        pk_filter = lambda p, b=bounds: b[0] < token_of(p) <= b[1]  # noqa: E731
    elif pk_mode == "partial":
        x = rng.choice(P1)
        where.append(f"p1 = {x}")
        pk_filter = lambda p, x=x: p[0] == x  # noqa: E731
        filtering = True
    partitions_known = pk_mode in ("eq", "in")

    distinct = rng.random() < 0.08
    # Clustering restrictions.
    ck_filter: Callable = lambda ck: True  # noqa: E731
    has_ck = False
    if not distinct:
        shape = rng.choices(["none", "c1", "c1in", "c1c2", "c1slice", "c1inc2", "multi", "multiin",
                             "c2only"], weights=[30, 10, 8, 10, 10, 6, 10, 6, 6])[0]
        a, b = rng.choice(C1), rng.choice(C2)
        lo, hi = sorted(rng.sample(C1, 2))
        if shape == "c1":
            where.append(f"c1 = {a}")
            ck_filter = lambda ck, a=a: ck[0] == a  # noqa: E731
        elif shape == "c1in":
            values = rng.sample(C1, 2)
            where.append(f"c1 IN ({values[0]}, {values[1]})")
            ck_filter = lambda ck, v=values: ck[0] in v  # noqa: E731
        elif shape == "c1c2":
            op = rng.choice(["=", ">", ">=", "<", "<="])
            where.append(f"c1 = {a} AND c2 {op} {b}")
            ck_filter = lambda ck, a=a, b=b, op=op: ck[0] == a and compare(ck[1], op, b)  # noqa
        elif shape == "c1slice":
            where.append(f"c1 > {lo} AND c1 <= {hi}")
            ck_filter = lambda ck, lo=lo, hi=hi: lo < ck[0] <= hi  # noqa: E731
        elif shape == "c1inc2":
            values = rng.sample(C1, 2)
            where.append(f"c1 IN ({values[0]}, {values[1]}) AND c2 < {b}")
            ck_filter = lambda ck, v=values, b=b: ck[0] in v and ck[1] < b  # noqa: E731
        elif shape == "multi":
            op_lo, op_hi = rng.choice([">", ">="]), rng.choice(["<", "<="])
            first, second = (a, b), (rng.choice(C1), rng.choice(C2))
            where.append(f"(c1, c2) {op_lo} ({first[0]}, {first[1]})")
            if rng.random() < 0.5:
                where.append(f"(c1, c2) {op_hi} ({second[0]}, {second[1]})")
                ck_filter = lambda ck, f=first, s=second, l=op_lo, h=op_hi: (  # noqa: E731,E741
                    compare(ck, l, f) and compare(ck, h, s))
            else:
                ck_filter = lambda ck, f=first, l=op_lo: compare(ck, l, f)  # noqa: E731,E741
        elif shape == "multiin":
            tuples = [(rng.choice(C1), rng.choice(C2)) for _ in range(3)]
            where.append("(c1, c2) IN (" + ", ".join(f"({x}, {y})" for x, y in tuples) + ")")
            ck_filter = lambda ck, t=tuples: ck in t  # noqa: E731
        elif shape == "c2only":
            where.append(f"c2 = {b}")
            ck_filter = lambda ck, b=b: ck[1] == b  # noqa: E731
            filtering = True
        has_ck = shape != "none"
        if has_ck and not partitions_known:
            filtering = True

    # Regular-column filtering. Static-column filtering is left to test_select_restrictions.py:
    # whether a partition without rows survives a static filter is a corner this model skips.
    row_filter: Callable = lambda values: True  # noqa: E731
    has_regular_filter = False
    if not distinct and rng.random() < 0.3:
        kind = rng.randrange(3)
        if kind == 0:
            x = rng.randrange(10)
            where.append(f"v > {x}")
            row_filter = lambda r, x=x: r["v"] is not None and r["v"] > x  # noqa: E731
        elif kind == 1:
            x = rng.choice("xyz")
            where.append(f"w = '{x}'")
            row_filter = lambda r, x=x: r["w"] == x  # noqa: E731
        else:
            x = rng.choice(TAGS)
            where.append(f"tags CONTAINS {x}")
            row_filter = lambda r, x=x: r["tags"] is not None and x in r["tags"]  # noqa: E731
        filtering = True
        has_regular_filter = True

    # Ordering.
    reversed_ = False
    order_columns: list[tuple[str, bool]] = []
    post_ordering = False
    if partitions_known and not distinct and rng.random() < 0.3:
        reversed_ = rng.random() < 0.6
        if rng.random() < 0.5:
            order_columns = [("c1", reversed_)]
        else:
            order_columns = [("c1", reversed_), ("c2", not reversed_)]
        post_ordering = pk_mode == "in"

    per_partition_limit = rng.randrange(1, 4) if not distinct and rng.random() < 0.2 else None
    limit = rng.randrange(1, 25) if rng.random() < 0.3 else None
    fetch_size = None if post_ordering else rng.randrange(1, 51)

    # The model's answer.
    candidates = [p for p in PARTITIONS if pk_filter(p)]
    if partitions_known:
        candidates.sort()
    else:
        candidates.sort(key=token_of)
    expected: list[tuple] = []
    for pk in candidates:
        rows = model.live_rows(pk)
        static = model.static_value(pk)
        if distinct:
            if rows or static is not None:
                expected.append((pk[0], pk[1], static))
            continue
        ordered = sorted(rows, key=clustering_order, reverse=reversed_)
        selected = [ck for ck in ordered if ck_filter(ck) and row_filter(rows[ck])]
        out = [(pk[0], pk[1], ck[0], ck[1], static, rows[ck]["v"], rows[ck]["w"], rows[ck]["tags"])
               for ck in selected]
        if not rows and static is not None and not has_ck and not has_regular_filter:
            out = [(pk[0], pk[1], None, None, static, None, None, None)]
        if per_partition_limit is not None:
            out = out[:per_partition_limit]
        expected.extend(out)
    if post_ordering:
        def key(row):
            # Cassandra's ordering comparator puts nulls (a static-only row) first; c2 is
            # descending, so its values compare reversed.
            parts = []
            for column, _ in order_columns:
                value = row[2] if column == "c1" else row[3]
                if value is None:
                    parts.append((0, 0))
                else:
                    parts.append((1, value if column == "c1" else -value))
            return tuple(parts)
        expected.sort(key=key, reverse=reversed_)
    if limit is not None:
        expected = expected[:limit]

    columns = "DISTINCT p1, p2, s" if distinct else "p1, p2, c1, c2, s, v, w, tags"
    text = f"SELECT {columns} FROM {table}"
    if where:
        text += " WHERE " + " AND ".join(where)
    if order_columns:
        text += " ORDER BY " + ", ".join(f"{c} {'DESC' if d else 'ASC'}" for c, d in order_columns)
    if per_partition_limit is not None:
        text += f" PER PARTITION LIMIT {per_partition_limit}"
    if limit is not None:
        text += f" LIMIT {limit}"
    if filtering or rng.random() < 0.1:
        text += " ALLOW FILTERING"
    return Query(text, expected, fetch_size)


def compare(left, op: str, right) -> bool:
    return {"=": left == right, ">": left > right, ">=": left >= right, "<": left < right,
            "<=": left <= right}[op]


def normalized(row: tuple) -> tuple:
    """Sets come back as SortedSet: compare them as sorted tuples."""
    return tuple(tuple(sorted(v)) if isinstance(v, (set, frozenset)) or type(v).__name__ ==
                 "SortedSet" else v for v in row)


def test_select_matches_the_model(session, ks):
    table = f"{ks}.m"
    session.execute(f"CREATE TABLE {table} (p1 int, p2 text, c1 int, c2 int, s int STATIC, v int, "
                    "w text, tags set<int>, PRIMARY KEY ((p1, p2), c1, c2)) "
                    "WITH CLUSTERING ORDER BY (c1 ASC, c2 DESC)")
    rng = random.Random(SEED)
    model = Model()
    random_writes(rng, session, table, model)
    # The data is not trivial: live rows, static-only partitions or deleted ones all occur.
    assert sum(len(model.live_rows(pk)) for pk in PARTITIONS) > 20
    failures = []
    for _ in range(QUERIES):
        query = random_query(rng, table, model)
        try:
            got = [normalized(r) for r in fetch(session, query.text, fetch_size=query.fetch_size)]
        except Exception as error:  # a refusal is a failure too: every query here is legal
            failures.append(f"{query.text} (fetch_size={query.fetch_size}): {error}")
            continue
        if got != query.expected:
            failures.append(f"{query.text} (fetch_size={query.fetch_size}):\n"
                            f"  expected {query.expected}\n  got      {got}")
    assert not failures, f"{len(failures)} of {QUERIES} queries differ:\n" + "\n".join(failures[:10])
