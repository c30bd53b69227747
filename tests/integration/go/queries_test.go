package sibyl_test

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"sync"
	"testing"

	"github.com/gocql/gocql"
)

// 25 rows of one partition and 25 single-row partitions.
func createPagingData(t *testing.T, session *gocql.Session) {
	t.Helper()
	createKeyspace(t, session, "go_paging")
	mustExec(t, session,
		"CREATE TABLE go_paging.wide (p int, c int, v text, PRIMARY KEY (p, c))",
		"CREATE TABLE go_paging.narrow (p int PRIMARY KEY, v text)")
	batch := session.NewBatch(gocql.UnloggedBatch)
	for i := 0; i < 25; i++ {
		batch.Query("INSERT INTO go_paging.wide (p, c, v) VALUES (?, ?, ?)", 1, i, fmt.Sprint("v", i))
	}
	if err := session.ExecuteBatch(batch); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 25; i++ {
		if err := session.Query("INSERT INTO go_paging.narrow (p, v) VALUES (?, ?)", i, fmt.Sprint("n", i)).Exec(); err != nil {
			t.Fatal(err)
		}
	}
}

// readPages pages by hand: PageSize, PageState in, Iter.PageState out.
func readPages(t *testing.T, session *gocql.Session, pageSize int, statement string, values ...interface{}) (
	rows []string, pageSizes []int) {
	t.Helper()
	var state []byte
	for pages := 0; ; pages++ {
		if pages > 100 {
			t.Fatalf("%s: over 100 pages", statement)
		}
		iter := session.Query(statement, values...).PageSize(pageSize).PageState(state).Iter()
		pageSizes = append(pageSizes, iter.NumRows())
		var key int
		var v string
		for iter.Scan(&key, &v) {
			rows = append(rows, fmt.Sprint(key, "=", v))
		}
		state = iter.PageState()
		if err := iter.Close(); err != nil {
			t.Fatalf("%s: page %d: %v%s", statement, pages, err, serverNote())
		}
		if len(state) == 0 {
			return rows, pageSizes
		}
	}
}

func TestPaging(t *testing.T) {
	session := connect(t, nil)
	createPagingData(t, session)

	var want []string
	for i := 0; i < 25; i++ {
		want = append(want, fmt.Sprint(i, "=v", i))
	}
	t.Run("within a partition by hand", func(t *testing.T) {
		rows, pages := readPages(t, session, 10, "SELECT c, v FROM go_paging.wide WHERE p = ?", 1)
		if !reflect.DeepEqual(rows, want) {
			t.Errorf("rows %v", rows)
		}
		if !reflect.DeepEqual(pages, []int{10, 10, 5}) {
			t.Errorf("page sizes %v, expected [10 10 5]", pages)
		}
	})
	t.Run("within a partition, unprepared", func(t *testing.T) {
		rows, pages := readPages(t, session, 10, "/* unprepared */ SELECT c, v FROM go_paging.wide WHERE p = 1")
		if !reflect.DeepEqual(rows, want) || !reflect.DeepEqual(pages, []int{10, 10, 5}) {
			t.Errorf("rows %v in pages %v", rows, pages)
		}
	})
	t.Run("an exact number of pages", func(t *testing.T) {
		// A full page is not known to be the last (Cassandra's pager stops
		// counting at the page size): one more page, empty, without a state.
		rows, pages := readPages(t, session, 5, "SELECT c, v FROM go_paging.wide WHERE p = ?", 1)
		if !reflect.DeepEqual(rows, want) {
			t.Errorf("rows %v", rows)
		}
		if !reflect.DeepEqual(pages, []int{5, 5, 5, 5, 5, 0}) {
			t.Errorf("page sizes %v, expected [5 5 5 5 5 0]", pages)
		}
	})
	t.Run("automatic paging with Iter", func(t *testing.T) {
		iter := session.Query("SELECT c, v FROM go_paging.wide WHERE p = ?", 1).PageSize(7).Iter()
		var rows []string
		var c int
		var v string
		for iter.Scan(&c, &v) {
			rows = append(rows, fmt.Sprint(c, "=", v))
		}
		if err := iter.Close(); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(rows, want) {
			t.Errorf("rows %v", rows)
		}
	})
	t.Run("across partitions", func(t *testing.T) {
		unpaged, _ := readPages(t, session, 1000, "SELECT p, v FROM go_paging.narrow")
		if len(unpaged) != 25 {
			t.Fatalf("%d rows unpaged", len(unpaged))
		}
		paged, pages := readPages(t, session, 4, "SELECT p, v FROM go_paging.narrow")
		if !reflect.DeepEqual(paged, unpaged) {
			t.Errorf("paged %v\nunpaged %v", paged, unpaged)
		}
		if len(pages) < 7 || pages[0] != 4 {
			t.Errorf("page sizes %v", pages)
		}
		// Token order: the driver's own murmur3 must agree with the server's.
		var tokens []int64
		iter := session.Query("SELECT token(p) FROM go_paging.narrow").PageSize(6).Iter()
		var token int64
		for iter.Scan(&token) {
			tokens = append(tokens, token)
		}
		if err := iter.Close(); err != nil {
			t.Fatal(err)
		}
		if len(tokens) != 25 || !sort.SliceIsSorted(tokens, func(i, j int) bool { return tokens[i] < tokens[j] }) {
			t.Errorf("tokens not in order: %v", tokens)
		}
	})
}

func TestBatches(t *testing.T) {
	session := connect(t, nil)
	createKeyspace(t, session, "go_batch")
	mustExec(t, session,
		"CREATE TABLE go_batch.kv (k text, c int, v text, PRIMARY KEY (k, c))",
		"CREATE TABLE go_batch.counts (k text PRIMARY KEY, n counter)")

	read := func(k string) map[int]string {
		t.Helper()
		out := map[int]string{}
		iter := session.Query("SELECT c, v FROM go_batch.kv WHERE k = ?", k).Iter()
		var c int
		var v string
		for iter.Scan(&c, &v) {
			out[c] = v
		}
		if err := iter.Close(); err != nil {
			t.Fatal(err)
		}
		return out
	}

	t.Run("logged", func(t *testing.T) {
		batch := session.NewBatch(gocql.LoggedBatch)
		batch.Query("INSERT INTO go_batch.kv (k, c, v) VALUES (?, ?, ?)", "a", 1, "one")
		batch.Query("INSERT INTO go_batch.kv (k, c, v) VALUES ('b', 1, 'uno')")
		batch.Query("UPDATE go_batch.kv SET v = ? WHERE k = ? AND c = ?", "two", "a", 2)
		if err := session.ExecuteBatch(batch); err != nil {
			t.Fatalf("%v%s", err, serverNote())
		}
		if got := read("a"); !reflect.DeepEqual(got, map[int]string{1: "one", 2: "two"}) {
			t.Errorf("a: %v", got)
		}
		if got := read("b"); !reflect.DeepEqual(got, map[int]string{1: "uno"}) {
			t.Errorf("b: %v", got)
		}
	})
	t.Run("unlogged with a timestamp", func(t *testing.T) {
		batch := session.NewBatch(gocql.UnloggedBatch).WithTimestamp(1000)
		batch.Query("INSERT INTO go_batch.kv (k, c, v) VALUES (?, ?, ?)", "c", 1, "x")
		batch.Query("DELETE FROM go_batch.kv WHERE k = ? AND c = ?", "a", 2)
		if err := session.ExecuteBatch(batch); err != nil {
			t.Fatalf("%v%s", err, serverNote())
		}
		var writetime int64
		if err := session.Query("SELECT writetime(v) FROM go_batch.kv WHERE k = ? AND c = ?", "c", 1).Scan(&writetime); err != nil {
			t.Fatal(err)
		}
		if writetime != 1000 {
			t.Errorf("writetime %d, expected the batch's 1000", writetime)
		}
		// The delete at timestamp 1000 is older than the row written just before.
		if got := read("a"); !reflect.DeepEqual(got, map[int]string{1: "one", 2: "two"}) {
			t.Errorf("a: %v", got)
		}
	})
	t.Run("counter", func(t *testing.T) {
		for i := 0; i < 2; i++ {
			batch := session.NewBatch(gocql.CounterBatch)
			batch.Query("UPDATE go_batch.counts SET n = n + ? WHERE k = ?", int64(3), "x")
			batch.Query("UPDATE go_batch.counts SET n = n - 1 WHERE k = 'y'")
			if err := session.ExecuteBatch(batch); err != nil {
				t.Fatalf("%v%s", err, serverNote())
			}
		}
		for k, want := range map[string]int64{"x": 6, "y": -2} {
			var n int64
			if err := session.Query("SELECT n FROM go_batch.counts WHERE k = ?", k).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != want {
				t.Errorf("%s: %d, expected %d", k, n, want)
			}
		}
	})
	t.Run("counter update in a logged batch is refused", func(t *testing.T) {
		batch := session.NewBatch(gocql.LoggedBatch)
		batch.Query("UPDATE go_batch.counts SET n = n + 1 WHERE k = ?", "x")
		err := session.ExecuteBatch(batch)
		reqErr := requestError(t, err, "logged batch of a counter update")
		if reqErr.Code() != gocql.ErrCodeInvalid ||
			reqErr.Message() != "Cannot include a counter statement in a logged batch" {
			t.Errorf("error 0x%04x %q", reqErr.Code(), reqErr.Message())
		}
	})
	t.Run("conditional", func(t *testing.T) {
		batch := session.NewBatch(gocql.LoggedBatch)
		batch.Query("INSERT INTO go_batch.kv (k, c, v) VALUES (?, ?, ?) IF NOT EXISTS", "d", 1, "first")
		batch.Query("INSERT INTO go_batch.kv (k, c, v) VALUES (?, ?, ?)", "d", 2, "second")
		row := map[string]interface{}{}
		applied, iter, err := session.MapExecuteBatchCAS(batch, row)
		if err != nil {
			t.Fatalf("%v%s", err, serverNote())
		}
		_ = iter.Close()
		if !applied {
			t.Errorf("first conditional batch not applied: %v", row)
		}
		batch = session.NewBatch(gocql.LoggedBatch)
		batch.Query("INSERT INTO go_batch.kv (k, c, v) VALUES (?, ?, ?) IF NOT EXISTS", "d", 1, "again")
		batch.Query("UPDATE go_batch.kv SET v = ? WHERE k = ? AND c = ?", "changed", "d", 2)
		row = map[string]interface{}{}
		applied, iter, err = session.MapExecuteBatchCAS(batch, row)
		if err != nil {
			t.Fatalf("%v%s", err, serverNote())
		}
		_ = iter.Close()
		want := map[string]interface{}{"k": "d", "c": 1, "v": "first"}
		if applied || !reflect.DeepEqual(row, want) {
			t.Errorf("second conditional batch: applied %v, row %v, expected not applied with %v", applied, row, want)
		}
		if got := read("d"); !reflect.DeepEqual(got, map[int]string{1: "first", 2: "second"}) {
			t.Errorf("d: %v", got)
		}
	})
}

func TestLightweightTransactions(t *testing.T) {
	session := connect(t, nil)
	createKeyspace(t, session, "go_lwt")
	mustExec(t, session, "CREATE TABLE go_lwt.users (name text PRIMARY KEY, email text, age int)")
	insert := "INSERT INTO go_lwt.users (name, email, age) VALUES (?, ?, ?) IF NOT EXISTS"

	row := map[string]interface{}{}
	applied, err := session.Query(insert, "ana", "ana@example.com", 30).MapScanCAS(row)
	if err != nil {
		t.Fatalf("%v%s", err, serverNote())
	}
	if !applied || len(row) != 0 {
		t.Errorf("first insert: applied %v, row %v", applied, row)
	}

	// Not applied: the existing row comes back, every column.
	row = map[string]interface{}{}
	applied, err = session.Query(insert, "ana", "other@example.com", 40).MapScanCAS(row)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]interface{}{"name": "ana", "email": "ana@example.com", "age": 30}
	if applied || !reflect.DeepEqual(row, want) {
		t.Errorf("second insert: applied %v, row %v, expected not applied with %v", applied, row, want)
	}

	// ScanCAS: [applied] then the columns in table order (key, then regular
	// columns by name).
	var name, email string
	var age int
	applied, err = session.Query(insert, "ana", "x", 1).ScanCAS(&name, &age, &email)
	if err != nil {
		t.Fatal(err)
	}
	if applied || name != "ana" || age != 30 || email != "ana@example.com" {
		t.Errorf("ScanCAS: applied %v, %q %d %q", applied, name, age, email)
	}

	// UPDATE ... IF: applied, then not applied with the current value.
	update := "UPDATE go_lwt.users SET email = ? WHERE name = ? IF email = ?"
	applied, err = session.Query(update, "new@example.com", "ana", "ana@example.com").ScanCAS()
	if err != nil {
		t.Fatal(err)
	}
	if !applied {
		t.Error("UPDATE IF with the right value not applied")
	}
	var current string
	applied, err = session.Query(update, "newer@example.com", "ana", "ana@example.com").ScanCAS(&current)
	if err != nil {
		t.Fatal(err)
	}
	if applied || current != "new@example.com" {
		t.Errorf("UPDATE IF with a stale value: applied %v, current %q", applied, current)
	}

	// IF EXISTS on a missing row: only [applied], false.
	row = map[string]interface{}{}
	applied, err = session.Query("UPDATE go_lwt.users SET age = ? WHERE name = ? IF EXISTS", 5, "nobody").MapScanCAS(row)
	if err != nil {
		t.Fatal(err)
	}
	if applied || len(row) != 0 {
		t.Errorf("UPDATE IF EXISTS of a missing row: applied %v, row %v", applied, row)
	}
	// DELETE IF with a condition on a column, unprepared.
	row = map[string]interface{}{}
	applied, err = session.Query("/* unprepared */ DELETE FROM go_lwt.users WHERE name = 'ana' IF age > 18").MapScanCAS(row)
	if err != nil {
		t.Fatal(err)
	}
	if !applied {
		t.Errorf("DELETE IF age > 18 not applied: %v", row)
	}
	if err := session.Query("SELECT name FROM go_lwt.users WHERE name = ?", "ana").Scan(&name); err != gocql.ErrNotFound {
		t.Errorf("the deleted row: %v", err)
	}
}

// USE switches the keyspace of the connection, for unqualified names; a
// session's Keyspace does the same for every connection.
func TestUseKeyspace(t *testing.T) {
	session := connect(t, nil)
	createKeyspace(t, session, "go_use")
	mustExec(t, session, "CREATE TABLE go_use.t (k int PRIMARY KEY, v text)",
		"INSERT INTO go_use.t (k, v) VALUES (1, 'one')")

	// gocql refuses USE through Query (it would switch one pooled connection);
	// a session bound to the keyspace sends USE on each connection.
	if err := session.Query("USE go_use").Exec(); err == nil {
		t.Error("gocql ran USE through Query")
	}
	bound := connect(t, func(c *gocql.ClusterConfig) { c.Keyspace = "go_use"; c.NumConns = 2 })
	for i := 0; i < 4; i++ {
		var v string
		if err := bound.Query("SELECT v FROM t WHERE k = ?", 1).Scan(&v); err != nil || v != "one" {
			t.Fatalf("unqualified prepared read: %q %v%s", v, err, serverNote())
		}
		if err := bound.Query("/* unprepared */ SELECT v FROM t WHERE k = 1").Scan(&v); err != nil || v != "one" {
			t.Fatalf("unqualified unprepared read: %q %v", v, err)
		}
	}
	if err := bound.Query("INSERT INTO t (k, v) VALUES (?, ?)", 2, "two").Exec(); err != nil {
		t.Fatal(err)
	}
	var v string
	if err := session.Query("SELECT v FROM go_use.t WHERE k = ?", 2).Scan(&v); err != nil || v != "two" {
		t.Errorf("qualified read of the unqualified write: %q %v", v, err)
	}

	// A keyspace that does not exist: the session does not come up.
	cluster := newCluster(&driverLog{})
	cluster.Keyspace = "go_no_such_keyspace"
	if s, err := cluster.CreateSession(); err == nil {
		s.Close()
		t.Error("a session bound to a missing keyspace came up")
	}
}

// responseOpcodes records the opcode of every response frame.
type responseOpcodes struct {
	mu      sync.Mutex
	opcodes []byte
}

func (o *responseOpcodes) ObserveFrameHeader(_ context.Context, h gocql.ObservedFrameHeader) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.opcodes = append(o.opcodes, byte(h.Opcode))
}

// since returns the opcodes recorded after the first n, by name, events
// (pushed to the control connection at any time) left out.
func (o *responseOpcodes) since(n int) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	names := map[byte]string{0x00: "ERROR", 0x02: "READY", 0x06: "SUPPORTED", 0x08: "RESULT", 0x0C: "EVENT"}
	var out []string
	for _, op := range o.opcodes[n:] {
		if op == 0x0C {
			continue
		}
		if name, ok := names[op]; ok {
			out = append(out, name)
		} else {
			out = append(out, fmt.Sprintf("0x%02x", op))
		}
	}
	return out
}

func (o *responseOpcodes) count() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.opcodes)
}

// Prepared statements after the table changes under them. Cassandra 4.1
// drops a table's prepared statements when the table is altered or dropped
// (QueryProcessor's listener, TableMetadata.changeAffectsPreparedStatements),
// so the next EXECUTE gets Unprepared (0x2500), gocql prepares again and gets
// the new metadata: with protocol v4 and skip_metadata there is no other way
// for the driver to learn that the result's columns changed.
func TestPreparedStatementsAfterSchemaChanges(t *testing.T) {
	opcodes := &responseOpcodes{}
	session := connect(t, func(c *gocql.ClusterConfig) {
		c.NumConns = 1
		c.FrameHeaderObserver = opcodes
	})
	createKeyspace(t, session, "go_alter")
	mustExec(t, session,
		"CREATE TABLE go_alter.t (k int PRIMARY KEY, a text)",
		"INSERT INTO go_alter.t (k, a) VALUES (1, 'x')",
		"CREATE TABLE go_alter.typed (k int PRIMARY KEY, v int)",
		"INSERT INTO go_alter.typed (k, v) VALUES (1, 5)")

	t.Run("SELECT * after ALTER TABLE ADD", func(t *testing.T) {
		selectAll := "SELECT * FROM go_alter.t WHERE k = ?"
		row := map[string]interface{}{}
		if err := session.Query(selectAll, 1).MapScan(row); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(row, map[string]interface{}{"k": 1, "a": "x"}) {
			t.Errorf("before ALTER: %v", row)
		}
		mustExec(t, session, "ALTER TABLE go_alter.t ADD b int", "UPDATE go_alter.t SET b = 7 WHERE k = 1")
		before := opcodes.count()
		row = map[string]interface{}{}
		if err := session.Query(selectAll, 1).MapScan(row); err != nil {
			t.Fatalf("%v%s", err, serverNote())
		}
		responses := opcodes.since(before)
		// Unprepared (an ERROR), the PREPARE's RESULT, then the rows.
		if !contains(responses, "ERROR") {
			t.Errorf("after ALTER TABLE ADD b, EXECUTE of %q was not answered Unprepared: responses %v",
				selectAll, responses)
		}
		if !reflect.DeepEqual(row, map[string]interface{}{"k": 1, "a": "x", "b": 7}) {
			t.Errorf("after ALTER TABLE ADD b: %v (responses %v)", row, responses)
		}
	})

	t.Run("SELECT after DROP and CREATE with another type", func(t *testing.T) {
		selectV := "SELECT v FROM go_alter.typed WHERE k = ?"
		row := map[string]interface{}{}
		if err := session.Query(selectV, 1).MapScan(row); err != nil || row["v"] != 5 {
			t.Fatalf("before DROP: %v %v", row, err)
		}
		mustExec(t, session, "DROP TABLE go_alter.typed",
			"CREATE TABLE go_alter.typed (k int PRIMARY KEY, v text)",
			"INSERT INTO go_alter.typed (k, v) VALUES (1, 'hello')")
		before := opcodes.count()
		row = map[string]interface{}{}
		err := session.Query(selectV, 1).MapScan(row)
		responses := opcodes.since(before)
		if !contains(responses, "ERROR") {
			t.Errorf("after DROP and CREATE TABLE, EXECUTE of %q was not answered Unprepared: responses %v",
				selectV, responses)
		}
		if err != nil || row["v"] != "hello" {
			t.Errorf("after DROP and CREATE: %v %v (responses %v)", row, err, responses)
		}
	})
}

func contains(list []string, s string) bool {
	for _, item := range list {
		if item == s {
			return true
		}
	}
	return false
}
