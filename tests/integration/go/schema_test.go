package sibyl_test

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gocql/gocql"
)

// Server errors reach the caller as gocql.RequestError with the protocol's
// code, and Cassandra 4.1's messages.
func TestErrors(t *testing.T) {
	session := connect(t, nil)
	createKeyspace(t, session, "go_errors")
	mustExec(t, session, "CREATE TABLE go_errors.t (k int PRIMARY KEY, v text)",
		"CREATE TYPE go_errors.pair (a int, b int)")

	check := func(t *testing.T, err error, statement string, code int, message string) gocql.RequestError {
		t.Helper()
		reqErr := requestError(t, err, statement)
		if reqErr.Code() != code {
			t.Errorf("%s: error 0x%04x %q, expected code 0x%04x", statement, reqErr.Code(), reqErr.Message(), code)
		}
		if message != "" && reqErr.Message() != message {
			t.Errorf("%s: message %q, expected %q", statement, reqErr.Message(), message)
		}
		return reqErr
	}

	t.Run("syntax error, unprepared", func(t *testing.T) {
		statement := "SELEKT * FROM go_errors.t"
		check(t, session.Query(statement).Exec(), statement, gocql.ErrCodeSyntax, "")
	})
	t.Run("syntax error, prepared", func(t *testing.T) {
		statement := "SELECT * FROM go_errors.t WHERE"
		check(t, session.Query(statement).Exec(), statement, gocql.ErrCodeSyntax, "")
	})
	t.Run("unknown table", func(t *testing.T) {
		statement := "SELECT * FROM go_errors.no_such_table WHERE k = ?"
		check(t, session.Query(statement, 1).Exec(), statement, gocql.ErrCodeInvalid,
			"table no_such_table does not exist")
		statement = "/* unprepared */ INSERT INTO go_errors.no_such_table (k) VALUES (1)"
		check(t, session.Query(statement).Exec(), statement, gocql.ErrCodeInvalid,
			"table no_such_table does not exist")
	})
	t.Run("unknown keyspace", func(t *testing.T) {
		statement := "SELECT * FROM go_no_such_keyspace.t"
		check(t, session.Query(statement).Exec(), statement, gocql.ErrCodeInvalid,
			"keyspace go_no_such_keyspace does not exist")
	})
	t.Run("unknown column", func(t *testing.T) {
		statement := "SELECT nope FROM go_errors.t WHERE k = ?"
		check(t, session.Query(statement, 1).Exec(), statement, gocql.ErrCodeInvalid,
			"Undefined column name nope in table go_errors.t")
	})
	t.Run("table already exists", func(t *testing.T) {
		statement := "CREATE TABLE go_errors.t (k int PRIMARY KEY, v text)"
		reqErr := check(t, session.Query(statement).Exec(), statement, gocql.ErrCodeAlreadyExists,
			`Cannot add already existing table "t" to keyspace "go_errors"`)
		var exists *gocql.RequestErrAlreadyExists
		if !errors.As(reqErr, &exists) {
			t.Fatalf("%T is not a *gocql.RequestErrAlreadyExists", reqErr)
		}
		if exists.Keyspace != "go_errors" || exists.Table != "t" {
			t.Errorf("already exists: keyspace %q table %q", exists.Keyspace, exists.Table)
		}
		mustExec(t, session, "CREATE TABLE IF NOT EXISTS go_errors.t (k int PRIMARY KEY, v text)")
	})
	t.Run("keyspace already exists", func(t *testing.T) {
		statement := "CREATE KEYSPACE go_errors WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}"
		reqErr := check(t, session.Query(statement).Exec(), statement, gocql.ErrCodeAlreadyExists,
			`Cannot add existing keyspace "go_errors"`)
		var exists *gocql.RequestErrAlreadyExists
		if !errors.As(reqErr, &exists) {
			t.Fatalf("%T is not a *gocql.RequestErrAlreadyExists", reqErr)
		}
		if exists.Keyspace != "go_errors" || exists.Table != "" {
			t.Errorf("already exists: keyspace %q table %q", exists.Keyspace, exists.Table)
		}
	})
	t.Run("type already exists", func(t *testing.T) {
		// Cassandra 4.1 refuses a second CREATE TYPE as an invalid request.
		statement := "CREATE TYPE go_errors.pair (a int, b int)"
		check(t, session.Query(statement).Exec(), statement, gocql.ErrCodeInvalid,
			"A user type with name 'pair' already exists")
	})
	t.Run("DDL on what does not exist", func(t *testing.T) {
		for statement, message := range map[string]string{
			"DROP TABLE go_errors.nope":                              "Table 'go_errors.nope' doesn't exist",
			"DROP KEYSPACE go_no_such_keyspace":                      "Keyspace 'go_no_such_keyspace' doesn't exist",
			"CREATE TABLE go_no_such_keyspace.t (k int PRIMARY KEY)": "Keyspace 'go_no_such_keyspace' doesn't exist",
		} {
			check(t, session.Query(statement).Exec(), statement, gocql.ErrCodeInvalid, message)
		}
	})
	t.Run("wrong type of bound value", func(t *testing.T) {
		// gocql marshals by the prepared metadata: a string for an int column
		// fails in the driver, before anything is sent.
		err := session.Query("INSERT INTO go_errors.t (k, v) VALUES (?, ?)", "one", "x").Exec()
		if err == nil || !strings.Contains(err.Error(), "can not marshal") {
			t.Errorf("binding a string to an int: %v", err)
		}
	})
	t.Run("the session goes on", func(t *testing.T) {
		if err := session.Query("INSERT INTO go_errors.t (k, v) VALUES (?, ?)", 1, "ok").Exec(); err != nil {
			t.Fatalf("%v%s", err, serverNote())
		}
	})
}

// DDL as the driver's schema metadata reads it back from system_schema:
// keyspace options, tables with their key columns, orders, kinds and types,
// user types.
func TestSchemaMetadata(t *testing.T) {
	session := connect(t, nil)
	mustExec(t, session,
		"DROP KEYSPACE IF EXISTS go_meta",
		"CREATE KEYSPACE go_meta WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1} "+
			"AND durable_writes = false",
		"CREATE TYPE go_meta.address (street text, zip int, tags frozen<set<text>>)",
		"CREATE TYPE go_meta.person (name text, home frozen<address>)",
		`CREATE TABLE go_meta.events (
			tenant text, day date, at timeuuid, seq int,
			owner text STATIC, kind ascii, attrs map<text, int>, who frozen<person>, place address,
			PRIMARY KEY ((tenant, day), at, seq)) WITH CLUSTERING ORDER BY (at DESC, seq ASC)`,
		"CREATE TABLE go_meta.simple (id uuid PRIMARY KEY, n counter)")

	keyspace, err := session.KeyspaceMetadata("go_meta")
	if err != nil {
		t.Fatalf("KeyspaceMetadata: %v%s", err, serverNote())
	}
	if keyspace.Name != "go_meta" || keyspace.DurableWrites ||
		keyspace.StrategyClass != "org.apache.cassandra.locator.SimpleStrategy" ||
		fmt.Sprint(keyspace.StrategyOptions["replication_factor"]) != "1" {
		t.Errorf("keyspace %s durable %v strategy %s %v", keyspace.Name, keyspace.DurableWrites,
			keyspace.StrategyClass, keyspace.StrategyOptions)
	}
	var tables []string
	for name := range keyspace.Tables {
		tables = append(tables, name)
	}
	if len(tables) != 2 || keyspace.Tables["events"] == nil || keyspace.Tables["simple"] == nil {
		t.Fatalf("tables %v", tables)
	}

	events := keyspace.Tables["events"]
	names := func(columns []*gocql.ColumnMetadata) []string {
		var out []string
		for _, c := range columns {
			out = append(out, c.Name)
		}
		return out
	}
	if got := names(events.PartitionKey); !reflect.DeepEqual(got, []string{"tenant", "day"}) {
		t.Errorf("partition key %v", got)
	}
	if got := names(events.ClusteringColumns); !reflect.DeepEqual(got, []string{"at", "seq"}) {
		t.Errorf("clustering columns %v", got)
	}
	if len(events.ClusteringColumns) == 2 {
		if at, seq := events.ClusteringColumns[0], events.ClusteringColumns[1]; at.Order != gocql.DESC ||
			at.ClusteringOrder != "desc" || seq.Order != gocql.ASC || seq.ClusteringOrder != "asc" {
			t.Errorf("clustering orders: at %v %q, seq %v %q", at.Order, at.ClusteringOrder, seq.Order, seq.ClusteringOrder)
		}
	}
	wantColumns := map[string]struct {
		kind      gocql.ColumnKind
		validator string
	}{
		"tenant": {gocql.ColumnPartitionKey, "text"},
		"day":    {gocql.ColumnPartitionKey, "date"},
		"at":     {gocql.ColumnClusteringKey, "timeuuid"},
		"seq":    {gocql.ColumnClusteringKey, "int"},
		"owner":  {gocql.ColumnStatic, "text"},
		"kind":   {gocql.ColumnRegular, "ascii"},
		"attrs":  {gocql.ColumnRegular, "map<text, int>"},
		"who":    {gocql.ColumnRegular, "frozen<person>"},
		"place":  {gocql.ColumnRegular, "address"},
	}
	if len(events.Columns) != len(wantColumns) {
		t.Errorf("%d columns: %v", len(events.Columns), events.OrderedColumns)
	}
	for name, want := range wantColumns {
		column := events.Columns[name]
		if column == nil {
			t.Errorf("no column %s", name)
			continue
		}
		if column.Kind != want.kind || column.Validator != want.validator || column.Keyspace != "go_meta" ||
			column.Table != "events" {
			t.Errorf("column %s: kind %v validator %q (%s.%s), expected %v %q", name, column.Kind, column.Validator,
				column.Keyspace, column.Table, want.kind, want.validator)
		}
	}
	// In the order of system_schema.columns' rows: by name.
	if got := events.OrderedColumns; !reflect.DeepEqual(got,
		[]string{"at", "attrs", "day", "kind", "owner", "place", "seq", "tenant", "who"}) {
		t.Errorf("ordered columns %v", got)
	}
	if attrs := events.Columns["attrs"]; attrs != nil {
		if collection, ok := attrs.Type.(gocql.CollectionType); !ok || collection.Type() != gocql.TypeMap ||
			collection.Key.Type() != gocql.TypeText || collection.Elem.Type() != gocql.TypeInt {
			t.Errorf("attrs type %#v", attrs.Type)
		}
	}
	if n := keyspace.Tables["simple"].Columns["n"]; n == nil || n.Validator != "counter" {
		t.Errorf("counter column %#v", n)
	}

	if len(keyspace.UserTypes) != 2 {
		t.Errorf("user types %v", keyspace.UserTypes)
	}
	if address := keyspace.UserTypes["address"]; address == nil {
		t.Error("no user type address")
	} else {
		if !reflect.DeepEqual(address.FieldNames, []string{"street", "zip", "tags"}) || address.Keyspace != "go_meta" {
			t.Errorf("address fields %v of %s", address.FieldNames, address.Keyspace)
		}
		var types []gocql.Type
		for _, typ := range address.FieldTypes {
			types = append(types, typ.Type())
		}
		// (gocql reads the type names of system_schema: text is TypeText.)
		if !reflect.DeepEqual(types, []gocql.Type{gocql.TypeText, gocql.TypeInt, gocql.TypeSet}) {
			t.Errorf("address field types %v", types)
		}
	}
	// gocql 1.3.2 parses a user type's name in a type string as a custom
	// type; the names themselves are system_schema's.
	if person := keyspace.UserTypes["person"]; person == nil || len(person.FieldTypes) != 2 ||
		person.FieldTypes[1].Type() != gocql.TypeCustom {
		t.Errorf("user type person %#v", person)
	}
	var fieldNames, fieldTypes []string
	if err := session.Query("SELECT field_names, field_types FROM system_schema.types "+
		"WHERE keyspace_name = ? AND type_name = ?", "go_meta", "person").Scan(&fieldNames, &fieldTypes); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fieldNames, []string{"name", "home"}) ||
		!reflect.DeepEqual(fieldTypes, []string{"text", "frozen<address>"}) {
		t.Errorf("system_schema.types person: %v %v", fieldNames, fieldTypes)
	}

	// A table dropped and one added: the driver's metadata follows the
	// schema change events.
	// gocql gathers the events for a second (events.go eventDebounceTime)
	// before it drops its cached keyspace.
	mustExec(t, session, "DROP TABLE go_meta.simple", "CREATE TABLE go_meta.later (k int PRIMARY KEY)")
	deadline := time.Now().Add(5 * time.Second)
	for {
		keyspace, err = session.KeyspaceMetadata("go_meta")
		if err != nil {
			t.Fatal(err)
		}
		if keyspace.Tables["simple"] == nil && keyspace.Tables["later"] != nil {
			break
		}
		if time.Now().After(deadline) {
			var now []string
			for name := range keyspace.Tables {
				now = append(now, name)
			}
			t.Errorf("tables 5 s after DROP and CREATE: %v", now)
			break
		}
		time.Sleep(50 * time.Millisecond)
	}

	// Cassandra 4.1's system_schema, as the driver sees it.
	systemSchema, err := session.KeyspaceMetadata("system_schema")
	if err != nil {
		t.Fatal(err)
	}
	var systemTables []string
	for name := range systemSchema.Tables {
		systemTables = append(systemTables, name)
	}
	sort.Strings(systemTables)
	if want := []string{"aggregates", "columns", "dropped_columns", "functions", "indexes", "keyspaces", "tables",
		"triggers", "types", "views"}; !reflect.DeepEqual(systemTables, want) ||
		systemSchema.StrategyClass != "org.apache.cassandra.locator.LocalStrategy" {
		t.Errorf("system_schema: %s, tables %v", systemSchema.StrategyClass, systemTables)
	}
	if columns := systemSchema.Tables["columns"]; columns == nil ||
		!reflect.DeepEqual(columns.OrderedColumns, []string{"clustering_order", "column_name", "column_name_bytes",
			"keyspace_name", "kind", "position", "table_name", "type"}) ||
		len(columns.PartitionKey) != 1 || len(columns.ClusteringColumns) != 2 {
		t.Errorf("system_schema.columns: %+v", columns)
	}

	// A keyspace that does not exist.
	if _, err := session.KeyspaceMetadata("go_no_such_keyspace"); !errors.Is(err, gocql.ErrKeyspaceDoesNotExist) {
		t.Errorf("metadata of a missing keyspace: %v", err)
	}
}

// Consistency levels against replication factor 3 on a ring of one node:
// Cassandra 4.1 counts the replicas the strategy asks for (3) and the live
// ones (1), so ONE works and QUORUM (2) or ALL (3) fail with Unavailable
// (0x1000) before anything is written or read.
func TestUnavailable(t *testing.T) {
	session := connect(t, nil)
	mustExec(t, session, "DROP KEYSPACE IF EXISTS go_rf3",
		"CREATE KEYSPACE go_rf3 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}",
		"CREATE TABLE go_rf3.t (k int PRIMARY KEY, v int)")
	insert := "INSERT INTO go_rf3.t (k, v) VALUES (?, ?)"
	selectV := "SELECT v FROM go_rf3.t WHERE k = ?"
	if err := session.Query(insert, 1, 1).Consistency(gocql.One).Exec(); err != nil {
		t.Fatalf("write at ONE: %v%s", err, serverNote())
	}
	var v int
	if err := session.Query(selectV, 1).Consistency(gocql.One).Scan(&v); err != nil || v != 1 {
		t.Fatalf("read at ONE: %d %v", v, err)
	}
	cases := []struct {
		what        string
		consistency gocql.Consistency
		required    int
		run         func(gocql.Consistency) error
	}{
		{"write", gocql.Quorum, 2, func(c gocql.Consistency) error { return session.Query(insert, 1, 2).Consistency(c).Exec() }},
		{"write", gocql.All, 3, func(c gocql.Consistency) error { return session.Query(insert, 1, 2).Consistency(c).Exec() }},
		{"read", gocql.Quorum, 2, func(c gocql.Consistency) error { return session.Query(selectV, 1).Consistency(c).Scan(&v) }},
		{"read", gocql.All, 3, func(c gocql.Consistency) error { return session.Query(selectV, 1).Consistency(c).Scan(&v) }},
	}
	written := false // by a write that should have been refused
	for _, c := range cases {
		c := c
		t.Run(fmt.Sprint(c.what, " at ", c.consistency), func(t *testing.T) {
			err := c.run(c.consistency)
			if err == nil {
				written = written || c.what == "write"
				t.Skipf("sibyl differs: a %s at %v in a keyspace of replication factor 3 on one node succeeds; "+
					"Cassandra 4.1 answers Unavailable (0x1000) \"Cannot achieve consistency level %v\" "+
					"with required %d, alive 1", c.what, c.consistency, c.consistency, c.required)
			}
			var unavailable *gocql.RequestErrUnavailable
			if !errors.As(err, &unavailable) {
				t.Fatalf("%T %v, expected *gocql.RequestErrUnavailable", err, err)
			}
			if unavailable.Code() != gocql.ErrCodeUnavailable || unavailable.Consistency != c.consistency ||
				unavailable.Required != c.required || unavailable.Alive != 1 ||
				unavailable.Message() != "Cannot achieve consistency level "+c.consistency.String() {
				t.Errorf("%s", unavailable)
			}
		})
	}
	if err := session.Query(selectV, 1).Consistency(gocql.One).Scan(&v); err != nil || (v != 1 && !written) {
		t.Errorf("after the refused writes: %d %v", v, err)
	}
	mustExec(t, session, "DROP KEYSPACE go_rf3")
}
