package sibyl_test

import (
	"fmt"
	"math/big"
	"net"
	"reflect"
	"testing"
	"time"

	"github.com/gocql/gocql"
	"gopkg.in/inf.v0"
)

// point is the UDT go_types.point, bound and read through `cql` tags.
type point struct {
	X     int    `cql:"x"`
	Y     int    `cql:"y"`
	Label string `cql:"label"`
}

// allTypes is one row of go_types.all_types, in column order.
type allTypes struct {
	Ascii     string
	Bigint    int64
	Blob      []byte
	Boolean   bool
	Date      time.Time
	Decimal   *inf.Dec
	Double    float64
	Duration  gocql.Duration
	Float     float32
	Inet      net.IP
	Int       int
	Smallint  int16
	Text      string
	Time      time.Duration
	Timestamp time.Time
	Timeuuid  gocql.UUID
	Tinyint   int8
	UUID      gocql.UUID
	Varint    *big.Int
	Varchar   string
	List      []int
	Set       []string
	Map       map[string]int
	Tuple0    int
	Tuple1    string
	Tuple2    bool
	UDT       point
	FrozenUDT point
	FList     []int
	FSet      []int
	FMap      map[int]string
	Nested    []map[string][]int
}

const allColumns = "a, b, bl, bo, d, dec, dbl, dur, f, ip, i, si, tx, tm, ts, tu, ti, u, vi, vc, " +
	"l, s, m, tup, p, fp, fl, fs, fm, nested"

func createTypesSchema(t *testing.T, session *gocql.Session) {
	t.Helper()
	createKeyspace(t, session, "go_types")
	mustExec(t, session,
		"CREATE TYPE go_types.point (x int, y int, label text)",
		`CREATE TABLE go_types.all_types (
			id int PRIMARY KEY,
			a ascii, b bigint, bl blob, bo boolean, d date, dec decimal, dbl double, dur duration,
			f float, ip inet, i int, si smallint, tx text, tm time, ts timestamp, tu timeuuid,
			ti tinyint, u uuid, vi varint, vc varchar,
			l list<int>, s set<text>, m map<text, int>, tup tuple<int, text, boolean>,
			p point, fp frozen<point>,
			fl frozen<list<int>>, fs frozen<set<int>>, fm frozen<map<int, text>>,
			nested list<frozen<map<text, frozen<list<int>>>>>)`)
}

func sampleRow() allTypes {
	varint, _ := new(big.Int).SetString("-123456789012345678901234567890", 10)
	return allTypes{
		Ascii:     "plain ascii",
		Bigint:    -9007199254740993,
		Blob:      []byte{0xca, 0xfe, 0x00, 0xff},
		Boolean:   true,
		Date:      time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC),
		Decimal:   inf.NewDec(-12345678901, 4),
		Double:    -1.25e300,
		Duration:  gocql.Duration{Months: 14, Days: 3, Nanoseconds: 3723004005006},
		Float:     3.5,
		Inet:      net.ParseIP("2001:db8::1"),
		Int:       -2147483648,
		Smallint:  -32768,
		Text:      "héllo, 世界",
		Time:      13*time.Hour + 14*time.Minute + 15*time.Second + 123456789,
		Timestamp: time.Date(2024, 2, 29, 12, 34, 56, 789000000, time.UTC),
		Timeuuid:  mustUUID("d2177dd0-eaa2-11de-a572-001b779c76e3"),
		Tinyint:   -128,
		UUID:      mustUUID("123e4567-e89b-12d3-a456-426614174000"),
		Varint:    varint,
		Varchar:   "varchar is text",
		List:      []int{3, 1, 2, 1},
		Set:       []string{"a", "b", "c"},
		Map:       map[string]int{"one": 1, "two": 2},
		Tuple0:    7,
		Tuple1:    "seven",
		Tuple2:    true,
		UDT:       point{X: 1, Y: -2, Label: "p"},
		FrozenUDT: point{X: 3, Y: 4, Label: "fp"},
		FList:     []int{9, 8},
		FSet:      []int{-1, 0, 1},
		FMap:      map[int]string{1: "x", 2: "y"},
		Nested:    []map[string][]int{{"a": {1, 2}}, {"b": {}, "c": {3}}},
	}
}

// The same row as CQL literals.
const sampleLiterals = `'plain ascii', -9007199254740993, 0xcafe00ff, true, '2024-02-29', -1234567.8901, -1.25e300,
	1y2mo3d1h2m3s4ms5us6ns, 3.5, '2001:db8::1', -2147483648, -32768, 'héllo, 世界', '13:14:15.123456789',
	'2024-02-29 12:34:56.789+0000', d2177dd0-eaa2-11de-a572-001b779c76e3, -128,
	123e4567-e89b-12d3-a456-426614174000, -123456789012345678901234567890, 'varchar is text',
	[3, 1, 2, 1], {'c', 'a', 'b'}, {'two': 2, 'one': 1}, (7, 'seven', true),
	{x: 1, y: -2, label: 'p'}, {label: 'fp', x: 3, y: 4},
	[9, 8], {1, 0, -1}, {2: 'y', 1: 'x'}, [{'a': [1, 2]}, {'c': [3], 'b': []}]`

func (r *allTypes) scanDest() []interface{} {
	return []interface{}{&r.Ascii, &r.Bigint, &r.Blob, &r.Boolean, &r.Date, &r.Decimal, &r.Double, &r.Duration,
		&r.Float, &r.Inet, &r.Int, &r.Smallint, &r.Text, &r.Time, &r.Timestamp, &r.Timeuuid, &r.Tinyint, &r.UUID,
		&r.Varint, &r.Varchar, &r.List, &r.Set, &r.Map, &r.Tuple0, &r.Tuple1, &r.Tuple2, &r.UDT, &r.FrozenUDT,
		&r.FList, &r.FSet, &r.FMap, &r.Nested}
}

// insertAll binds every column but the tuple, written as a literal: gocql
// 1.3.2 counts a tuple bind marker as one value per element (frame.go
// readCol), so it can only bind a top-level tuple as (?, ?, ?), which
// TestBindMarkersInsideLiterals covers.
const insertAll = "INSERT INTO go_types.all_types (id, " + allColumns + ") VALUES (" +
	"?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (7, 'seven', true), ?, ?, ?, ?, ?, ?)"

func (r *allTypes) bindValues(id int) []interface{} {
	return []interface{}{id, r.Ascii, r.Bigint, r.Blob, r.Boolean, r.Date, r.Decimal, r.Double, r.Duration,
		r.Float, r.Inet, r.Int, r.Smallint, r.Text, r.Time, r.Timestamp, r.Timeuuid, r.Tinyint, r.UUID,
		r.Varint, r.Varchar, r.List, r.Set, r.Map, r.UDT, r.FrozenUDT,
		r.FList, r.FSet, r.FMap, r.Nested}
}

// compareRows reports every field that differs, with the field's name.
func compareRows(t *testing.T, what string, got, want allTypes) {
	t.Helper()
	gv, wv := reflect.ValueOf(got), reflect.ValueOf(want)
	for i := 0; i < gv.NumField(); i++ {
		name := gv.Type().Field(i).Name
		g, w := gv.Field(i).Interface(), wv.Field(i).Interface()
		equal := reflect.DeepEqual(g, w)
		switch gw := g.(type) {
		case *inf.Dec:
			equal = gw != nil && gw.Cmp(w.(*inf.Dec)) == 0 && gw.Scale() == w.(*inf.Dec).Scale()
		case *big.Int:
			equal = gw != nil && gw.Cmp(w.(*big.Int)) == 0
		case net.IP:
			equal = gw.Equal(w.(net.IP))
		case time.Time:
			equal = gw.Equal(w.(time.Time))
		}
		if !equal {
			t.Errorf("%s: %s is %#v, expected %#v", what, name, g, w)
		}
	}
}

func readRow(t *testing.T, session *gocql.Session, statement string, values ...interface{}) allTypes {
	t.Helper()
	var row allTypes
	if err := session.Query(statement, values...).Scan(row.scanDest()...); err != nil {
		t.Fatalf("%s: %v%s", statement, err, serverNote())
	}
	return row
}

// Every CQL type, written and read back both ways: prepared (gocql prepares
// every DML statement and binds the values) and unprepared (gocql sends a
// QUERY message for a statement not starting with a DML keyword, here a
// comment, with its values as literals).
func TestEveryTypeRoundTrips(t *testing.T) {
	session := connect(t, nil)
	createTypesSchema(t, session)
	want := sampleRow()

	if err := session.Query(insertAll, want.bindValues(1)...).Exec(); err != nil {
		t.Fatalf("prepared insert: %v%s", err, serverNote())
	}
	mustExec(t, session, "/* unprepared */ INSERT INTO go_types.all_types (id, "+allColumns+") VALUES (2, "+
		sampleLiterals+")")

	selectByID := "SELECT " + allColumns + " FROM go_types.all_types WHERE id = "
	compareRows(t, "prepared write, prepared read", readRow(t, session, selectByID+"?", 1), want)
	compareRows(t, "unprepared write, prepared read", readRow(t, session, selectByID+"?", 2), want)
	compareRows(t, "prepared write, unprepared read", readRow(t, session, "/* unprepared */ "+selectByID+"1"), want)
	compareRows(t, "unprepared write, unprepared read", readRow(t, session, "/* unprepared */ "+selectByID+"2"), want)

	// The column types as the result metadata names them.
	iter := session.Query("/* unprepared */ SELECT id, " + allColumns + " FROM go_types.all_types WHERE id = 1").Iter()
	columns := iter.Columns()
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	// (gocql's spelling: text is varchar on the wire, as in Cassandra; the
	// two UDT columns are checked below.)
	wantTypes := []string{"int", "ascii", "bigint", "blob", "boolean", "date", "decimal", "double", "duration",
		"float", "inet", "int", "smallint", "varchar", "time", "timestamp", "timeuuid", "tinyint", "uuid", "varint",
		"varchar", "list(int)", "set(varchar)", "map(varchar, int)", "tuple(int, varchar, boolean)", "", "",
		"list(int)", "set(int)", "map(int, varchar)", "list(map(varchar, list(int)))"}
	if len(columns) != len(wantTypes) {
		t.Fatalf("%d columns, expected %d", len(columns), len(wantTypes))
	}
	for i, column := range columns {
		if got := fmt.Sprint(column.TypeInfo); wantTypes[i] != "" && got != wantTypes[i] {
			t.Errorf("column %s: type %s, expected %s", column.Name, got, wantTypes[i])
		}
		if column.Keyspace != "go_types" || column.Table != "all_types" {
			t.Errorf("column %s of %s.%s", column.Name, column.Keyspace, column.Table)
		}
	}
	for _, i := range []int{25, 26} {
		udt, ok := columns[i].TypeInfo.(gocql.UDTTypeInfo)
		if !ok || udt.Name != "point" || udt.KeySpace != "go_types" || len(udt.Elements) != 3 ||
			udt.Elements[0].Name != "x" || udt.Elements[2].Name != "label" ||
			udt.Elements[2].Type.Type() != gocql.TypeVarchar {
			t.Errorf("UDT column %s: type %#v", columns[i].Name, columns[i].TypeInfo)
		}
	}
}

// Nulls: columns never written, and nulls bound explicitly, read back as
// nulls (nil pointers) and as Go zero values.
func TestNulls(t *testing.T) {
	session := connect(t, nil)
	createTypesSchema(t, session)
	mustExec(t, session, "INSERT INTO go_types.all_types (id) VALUES (10)")
	values := make([]interface{}, 30)
	values[0] = 11
	// gocql marshals a null UDT only from a nil pointer.
	values[24], values[25] = (*point)(nil), (*point)(nil)
	if err := session.Query(insertAll, values...).Exec(); err != nil {
		t.Fatalf("insert of nulls: %v%s", err, serverNote())
	}
	mustExec(t, session, "UPDATE go_types.all_types SET tup = null WHERE id = 11")
	for _, id := range []int{10, 11} {
		var text *string
		var bigint *int64
		var blob []byte
		var list []int
		var m map[string]int
		var udt *point
		var ts *time.Time
		err := session.Query("SELECT tx, b, bl, l, m, p, ts FROM go_types.all_types WHERE id = ?", id).
			Scan(&text, &bigint, &blob, &list, &m, &udt, &ts)
		if err != nil {
			t.Fatalf("id %d: %v", id, err)
		}
		if text != nil || bigint != nil || blob != nil || list != nil || m != nil || udt != nil || ts != nil {
			t.Errorf("id %d: not null: %v %v %v %v %v %v %v", id, text, bigint, blob, list, m, udt, ts)
		}
		row := map[string]interface{}{}
		if err := session.Query("SELECT i, tx FROM go_types.all_types WHERE id = ?", id).MapScan(row); err != nil {
			t.Fatal(err)
		}
		if row["i"] != 0 || row["tx"] != "" {
			t.Errorf("id %d: MapScan of nulls gave %#v", id, row)
		}
	}
	// A null read back through the unprepared path too.
	var text *string
	if err := session.Query("/* unprepared */ SELECT tx FROM go_types.all_types WHERE id = 11").Scan(&text); err != nil {
		t.Fatal(err)
	}
	if text != nil {
		t.Errorf("unprepared read of a null text: %q", *text)
	}
}

// Counters: increments and decrements, prepared and unprepared.
func TestCounter(t *testing.T) {
	session := connect(t, nil)
	createKeyspace(t, session, "go_counter")
	mustExec(t, session, "CREATE TABLE go_counter.hits (page text PRIMARY KEY, n counter, m counter)")
	for i := 0; i < 3; i++ {
		if err := session.Query("UPDATE go_counter.hits SET n = n + ? WHERE page = ?", int64(5), "/").Exec(); err != nil {
			t.Fatal(err)
		}
	}
	mustExec(t, session, "/* unprepared */ UPDATE go_counter.hits SET n = n - 1, m = m + 9223372036854775807 WHERE page = '/'")
	var n, m int64
	if err := session.Query("SELECT n, m FROM go_counter.hits WHERE page = ?", "/").Scan(&n, &m); err != nil {
		t.Fatal(err)
	}
	if n != 14 || m != 9223372036854775807 {
		t.Errorf("n %d, m %d", n, m)
	}
	iter := session.Query("SELECT n FROM go_counter.hits WHERE page = ?", "/").Iter()
	if typ := iter.Columns()[0].TypeInfo.Type(); typ != gocql.TypeCounter {
		t.Errorf("counter column of type %v", typ)
	}
	_ = iter.Close()
}

func mustUUID(text string) gocql.UUID {
	uuid, err := gocql.ParseUUID(text)
	if err != nil {
		panic(err)
	}
	return uuid
}

// Bind markers inside literals: the only way gocql 1.3.2 binds a top-level
// tuple is (?, ?, ?). Cassandra 4.1 prepares markers inside tuple and UDT
// literals (Tuples/UserTypes.Literal.prepare, each marker named after its
// component or field) and refuses them inside list, set and map literals
// (Lists/Sets/Maps.Literal.prepare).
func TestBindMarkersInsideLiterals(t *testing.T) {
	session := connect(t, nil)
	createKeyspace(t, session, "go_markers")
	mustExec(t, session,
		"CREATE TYPE go_markers.pair (a int, b text)",
		"CREATE TABLE go_markers.t (id int PRIMARY KEY, tup tuple<int, text, boolean>, l list<int>, "+
			"m map<text, int>, p frozen<pair>)")
	cases := []struct {
		name, insert string
		values       []interface{}
		check        func(*gocql.Query) error
	}{
		{"tuple", "INSERT INTO go_markers.t (id, tup) VALUES (?, (?, ?, ?))", []interface{}{1, 7, "seven", true},
			func(q *gocql.Query) error {
				var a int
				var b string
				var c bool
				if err := q.Scan(&a, &b, &c); err != nil {
					return err
				}
				if a != 7 || b != "seven" || !c {
					return fmt.Errorf("tuple read back as (%d, %q, %v)", a, b, c)
				}
				return nil
			}},
		{"udt", "INSERT INTO go_markers.t (id, p) VALUES (?, {a: ?, b: ?})", []interface{}{4, 1, "one"},
			func(q *gocql.Query) error {
				var p map[string]interface{}
				if err := q.Scan(&p); err != nil {
					return err
				}
				if p["a"] != 1 || p["b"] != "one" {
					return fmt.Errorf("UDT read back as %v", p)
				}
				return nil
			}},
	}
	for _, c := range cases {
		c := c
		t.Run(c.name, func(t *testing.T) {
			if err := session.Query(c.insert, c.values...).Exec(); err != nil {
				t.Fatalf("%s: %v%s", c.insert, err, serverNote())
			}
			column := map[string]string{"tuple": "tup", "udt": "p"}[c.name]
			if err := c.check(session.Query("SELECT "+column+" FROM go_markers.t WHERE id = ?", c.values[0])); err != nil {
				t.Error(err)
			}
		})
	}

	refused := []struct{ name, insert, message string }{
		{"list", "INSERT INTO go_markers.t (id, l) VALUES (?, [?, ?])",
			"Invalid list literal for l: bind variables are not supported inside collection literals"},
		{"map", "INSERT INTO go_markers.t (id, m) VALUES (?, {?: ?})",
			"Invalid map literal for m: bind variables are not supported inside collection literals"},
	}
	for _, c := range refused {
		c := c
		t.Run(c.name, func(t *testing.T) {
			err := session.Query(c.insert, 2, 5, 6).Exec()
			reqErr := requestError(t, err, c.insert)
			if reqErr.Code() != gocql.ErrCodeInvalid || reqErr.Message() != c.message {
				t.Errorf("%s: error 0x%04x %q, want 0x%04x %q", c.insert, reqErr.Code(), reqErr.Message(),
					gocql.ErrCodeInvalid, c.message)
			}
		})
	}
}

// Unset values (v4) leave a column as it is; TTL and timestamps bound as
// values.
func TestUnsetTTLAndTimestamps(t *testing.T) {
	session := connect(t, nil)
	createKeyspace(t, session, "go_unset")
	mustExec(t, session, "CREATE TABLE go_unset.t (k int PRIMARY KEY, a text, b text)")
	insert := "INSERT INTO go_unset.t (k, a, b) VALUES (?, ?, ?)"
	if err := session.Query(insert, 1, "a1", "b1").Exec(); err != nil {
		t.Fatal(err)
	}
	if err := session.Query(insert, 1, gocql.UnsetValue, "b2").Exec(); err != nil {
		t.Fatalf("unset value: %v%s", err, serverNote())
	}
	var a, b string
	if err := session.Query("SELECT a, b FROM go_unset.t WHERE k = ?", 1).Scan(&a, &b); err != nil {
		t.Fatal(err)
	}
	if a != "a1" || b != "b2" {
		t.Errorf("after an unset a: a %q b %q", a, b)
	}

	err := session.Query("INSERT INTO go_unset.t (k, a) VALUES (?, ?) USING TTL ? AND TIMESTAMP ?",
		2, "x", 3600, int64(1700000000000000)).Exec()
	if err != nil {
		t.Fatalf("USING TTL ? AND TIMESTAMP ?: %v%s", err, serverNote())
	}
	var ttl int
	var writetime int64
	if err := session.Query("SELECT ttl(a), writetime(a) FROM go_unset.t WHERE k = ?", 2).Scan(&ttl, &writetime); err != nil {
		t.Fatal(err)
	}
	if ttl <= 3500 || ttl > 3600 || writetime != 1700000000000000 {
		t.Errorf("ttl %d, writetime %d", ttl, writetime)
	}

	// The driver's client-side timestamp (DefaultTimestamp) and an explicit one.
	before := time.Now().UnixMicro()
	if err := session.Query(insert, 3, "a", "b").Exec(); err != nil {
		t.Fatal(err)
	}
	if err := session.Query("SELECT writetime(a) FROM go_unset.t WHERE k = ?", 3).Scan(&writetime); err != nil {
		t.Fatal(err)
	}
	if writetime < before || writetime > time.Now().UnixMicro() {
		t.Errorf("default timestamp %d not between %d and now", writetime, before)
	}
	if err := session.Query(insert, 4, "a", "b").WithTimestamp(42).Exec(); err != nil {
		t.Fatal(err)
	}
	if err := session.Query("SELECT writetime(b) FROM go_unset.t WHERE k = ?", 4).Scan(&writetime); err != nil {
		t.Fatal(err)
	}
	if writetime != 42 {
		t.Errorf("WithTimestamp(42) wrote at %d", writetime)
	}
}

// Server warnings reach Iter.Warnings.
func TestWarnings(t *testing.T) {
	session := connect(t, nil)
	mustExec(t, session, "DROP KEYSPACE IF EXISTS go_warn")
	iter := session.Query("CREATE KEYSPACE go_warn WITH replication = " +
		"{'class': 'SimpleStrategy', 'replication_factor': 3}").Iter()
	warnings := iter.Warnings()
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	want := []string{"Your replication factor 3 for keyspace go_warn is higher than the number of nodes 1"}
	if !reflect.DeepEqual(warnings, want) {
		t.Errorf("warnings %q, expected %q", warnings, want)
	}
	mustExec(t, session, "DROP KEYSPACE go_warn")
}
