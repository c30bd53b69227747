// A three-node cluster (`sibyl cluster start`: etcd and nodes on
// 127.0.0.1..3, free ports, a temporary directory) through gocql given
// 127.0.0.1 only. TestClusterDrivers starts the cluster once and runs, in
// order: gocql discovers the other two nodes; under TokenAwareHostPolicy a
// prepared statement is coordinated by the replica of its key (the replica
// computed here from the nodes' tokens and token()); after CREATE TABLE the
// nodes agree on the schema; gocql's metadata follows a table created through
// another node than its control connection's (skipped: a sibyl bug, see
// there); when a node is killed, QUORUM requests keep succeeding (with a retry
// policy, which gocql has none of by default) and ALL is refused with
// Unavailable; once restarted, the node coordinates its keys again and has
// kept the acknowledged writes.
//
// gocql does not expose prepared ids (it prepares per host and keeps each
// host's own id), so their equality across nodes is tested by the Python and
// Node.js suites only.
package sibyl_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gocql/gocql"
)

const (
	clusterNodes = 3
	// One replica per key: only one node may coordinate a token-aware request.
	singleReplica = "single_replica"
	// Three replicas: QUORUM still has two nodes when one dies.
	threeReplicas = "three_replicas"
	clusterKeys   = 40
)

func clusterAddress(i int) string { return fmt.Sprintf("127.0.0.%d", i) }

// localCluster is the cluster of `sibyl cluster start`, plus the nodes the
// tests restart.
type localCluster struct {
	binary                            string
	workdir, dir                      string
	nativePort, storagePort, etcdPort int
	restarted                         []*exec.Cmd
}

func startLocalCluster(t *testing.T) *localCluster {
	t.Helper()
	binary, err := sibylBinary()
	if err != nil {
		t.Fatal(err)
	}
	c := &localCluster{binary: binary, workdir: t.TempDir()}
	t.Cleanup(c.stop)
	// A port can be taken between the probe and the bind (etcd also binds
	// the etcd port + 1): a start that fails with "in use" is retried on
	// new ports, in a new directory.
	for attempt := 1; ; attempt++ {
		c.dir = filepath.Join(c.workdir, fmt.Sprintf("cluster%d", attempt))
		if err := c.pickPorts(); err != nil {
			t.Fatal(err)
		}
		out, err := c.command("start", "--nodes", strconv.Itoa(clusterNodes),
			"--native-port", strconv.Itoa(c.nativePort), "--storage-port", strconv.Itoa(c.storagePort),
			"--etcd-port", strconv.Itoa(c.etcdPort), "--prometheus-port", "0")
		if err == nil {
			return c
		}
		_, _ = c.command("stop")
		if attempt == 3 || !strings.Contains(out, "in use") {
			t.Fatalf("sibyl cluster start: %v\n%s", err, out)
		}
	}
}

// pickPorts holds three listeners open at once: three different ports, free
// again for the cluster once closed.
func (c *localCluster) pickPorts() error {
	var probes []net.Listener
	defer func() {
		for _, listener := range probes {
			listener.Close()
		}
	}()
	for _, port := range []*int{&c.nativePort, &c.storagePort, &c.etcdPort} {
		listener, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		probes = append(probes, listener)
		*port = listener.Addr().(*net.TCPAddr).Port
	}
	return nil
}

func (c *localCluster) command(verb string, extra ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, c.binary, append([]string{"cluster", verb, "--dir", c.dir}, extra...)...).CombinedOutput()
	return string(out), err
}

func (c *localCluster) nodeDir(i int) string { return filepath.Join(c.dir, fmt.Sprintf("node%d", i)) }

func (c *localCluster) pid(i int) (int, error) {
	text, err := os.ReadFile(filepath.Join(c.nodeDir(i), "pid"))
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.Fields(string(text))[0])
}

// startNode starts node i again on its data directory, as `cluster start` did.
func (c *localCluster) startNode(i int) error {
	log, err := os.OpenFile(filepath.Join(c.nodeDir(i), "sibyl-test.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer log.Close()
	address := clusterAddress(i)
	cmd := exec.Command(c.binary, "start", "--cluster-name", "Test Cluster",
		"--listen-address", address, "--rpc-address", address,
		"--native-transport-port", strconv.Itoa(c.nativePort), "--storage-port", strconv.Itoa(c.storagePort),
		"--prometheus-port", "0",
		"--data-dir", filepath.Join(c.nodeDir(i), "data"),
		"--seeds", fmt.Sprintf("127.0.0.1:%d", c.storagePort),
		"--metadata-store", "etcd", "--etcd-endpoints", fmt.Sprintf("http://127.0.0.1:%d", c.etcdPort))
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return err
	}
	c.restarted = append(c.restarted, cmd)
	return nil
}

func (c *localCluster) waitUntilServing(t *testing.T, i int) {
	t.Helper()
	waitUntil(t, time.Minute, "node "+clusterAddress(i)+" to accept connections", func() bool {
		conn, err := net.DialTimeout("tcp", net.JoinHostPort(clusterAddress(i), strconv.Itoa(c.nativePort)), time.Second)
		if err != nil {
			return false
		}
		conn.Close()
		return true
	})
}

func (c *localCluster) stop() {
	_, _ = c.command("stop")
	for _, cmd := range c.restarted {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	}
}

func waitUntil(t *testing.T, timeout time.Duration, what string, condition func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if condition() {
			return
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

// coordinators records which node ran the latest query.
type coordinators struct {
	mu   sync.Mutex
	last string
}

func (o *coordinators) ObserveQuery(_ context.Context, q gocql.ObservedQuery) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if q.Host != nil {
		o.last = q.Host.ConnectAddress().String()
	}
}

func (o *coordinators) latest() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.last
}

// hostWatcher is the session's host selection policy, also noting which hosts
// gocql added and which it holds down.
type hostWatcher struct {
	gocql.HostSelectionPolicy
	mu    sync.Mutex
	added map[string]bool
	down  map[string]bool
}

func newHostWatcher(policy gocql.HostSelectionPolicy) *hostWatcher {
	return &hostWatcher{HostSelectionPolicy: policy, added: map[string]bool{}, down: map[string]bool{}}
}

func (w *hostWatcher) note(host *gocql.HostInfo, added, down bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	address := host.ConnectAddress().String()
	w.added[address] = added
	w.down[address] = down
}

func (w *hostWatcher) AddHost(host *gocql.HostInfo) {
	w.note(host, true, false)
	w.HostSelectionPolicy.AddHost(host)
}

func (w *hostWatcher) RemoveHost(host *gocql.HostInfo) {
	w.note(host, false, false)
	w.HostSelectionPolicy.RemoveHost(host)
}

func (w *hostWatcher) HostUp(host *gocql.HostInfo) {
	w.note(host, true, false)
	w.HostSelectionPolicy.HostUp(host)
}

func (w *hostWatcher) HostDown(host *gocql.HostInfo) {
	w.note(host, true, true)
	w.HostSelectionPolicy.HostDown(host)
}

func (w *hostWatcher) known() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var hosts []string
	for address, added := range w.added {
		if added {
			hosts = append(hosts, address)
		}
	}
	sort.Strings(hosts)
	return hosts
}

func (w *hostWatcher) isDown(address string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.down[address]
}

// clusterSession is a token-aware session given 127.0.0.1 only, with
// `keyspace` as its keyspace: gocql keeps replica maps for that keyspace.
func clusterSession(t *testing.T, c *localCluster, keyspace string, consistency gocql.Consistency,
	configure func(*gocql.ClusterConfig)) (*gocql.Session, *hostWatcher, *coordinators) {
	t.Helper()
	config := gocql.NewCluster("127.0.0.1")
	config.Port = c.nativePort
	config.ProtoVersion = 4
	config.Timeout = 10 * time.Second
	config.ConnectTimeout = 10 * time.Second
	config.Keyspace = keyspace
	config.Consistency = consistency
	// Kept, not printed: gocql logs the failed dials to a killed node.
	config.Logger = &driverLog{}
	// The fallback is a plain round robin: a request that is not routed by
	// token would land on any node.
	watcher := newHostWatcher(gocql.TokenAwareHostPolicy(gocql.RoundRobinHostPolicy()))
	config.PoolConfig.HostSelectionPolicy = watcher
	observer := &coordinators{}
	config.QueryObserver = observer
	if configure != nil {
		configure(config)
	}
	session, err := config.CreateSession()
	if err != nil {
		t.Fatalf("cannot connect: %v", err)
	}
	t.Cleanup(session.Close)
	return session, watcher, observer
}

// pinnedSession sends everything to the node at address, and knows no other.
func pinnedSession(t *testing.T, c *localCluster, address string) *gocql.Session {
	t.Helper()
	session, _, _ := clusterSession(t, c, "", gocql.One, func(config *gocql.ClusterConfig) {
		config.Hosts = []string{address}
		config.HostFilter = gocql.WhiteListHostFilter(address)
	})
	return session
}

// ringToken is one token of a node's; readRing gives them all, sorted, from
// the system.local and system.peers of the node `session` asks.
type ringToken struct {
	token int64
	node  string
}

func readRing(t *testing.T, session *gocql.Session) []ringToken {
	t.Helper()
	var ring []ringToken
	add := func(node string, tokens []string) {
		for _, text := range tokens {
			token, err := strconv.ParseInt(text, 10, 64)
			if err != nil {
				t.Fatalf("token %q of %s: %v", text, node, err)
			}
			ring = append(ring, ringToken{token, node})
		}
	}
	var local []string
	if err := session.Query("SELECT tokens FROM system.local").Scan(&local); err != nil {
		t.Fatal(err)
	}
	add("127.0.0.1", local)
	iter := session.Query("SELECT peer, tokens FROM system.peers").Iter()
	var peer string
	var tokens []string
	for iter.Scan(&peer, &tokens) {
		add(peer, tokens)
	}
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	sort.Slice(ring, func(i, j int) bool { return ring[i].token < ring[j].token })
	return ring
}

// ownerOf is the node whose range (previous token, its token] holds token.
func ownerOf(ring []ringToken, token int64) string {
	i := sort.Search(len(ring), func(i int) bool { return ring[i].token >= token })
	if i == len(ring) {
		i = 0
	}
	return ring[i].node
}

func TestClusterDrivers(t *testing.T) {
	c := startLocalCluster(t)
	setup := pinnedSession(t, c, clusterAddress(1))
	for keyspace, factor := range map[string]int{singleReplica: 1, threeReplicas: 3} {
		mustExec(t, setup,
			fmt.Sprintf("CREATE KEYSPACE %s WITH replication = {'class': 'SimpleStrategy', 'replication_factor': %d}",
				keyspace, factor),
			"CREATE TABLE "+keyspace+".t (k int PRIMARY KEY, v text)")
	}
	all := []string{clusterAddress(1), clusterAddress(2), clusterAddress(3)}

	// The replica of each key of the one-replica keyspace, from the nodes'
	// tokens and token(), which needs a row: the keys are written first
	// through node 1 alone.
	ring := readRing(t, setup)
	replicaOf := map[int]string{}
	owners := map[string]bool{}
	for k := 0; k < clusterKeys; k++ {
		mustExec(t, setup, fmt.Sprintf("INSERT INTO %s.t (k, v) VALUES (%d, 'seed')", singleReplica, k))
		var token int64
		if err := setup.Query("SELECT token(k) FROM "+singleReplica+".t WHERE k = ?", k).Scan(&token); err != nil {
			t.Fatal(err)
		}
		replicaOf[k] = ownerOf(ring, token)
		owners[replicaOf[k]] = true
	}
	if len(owners) != clusterNodes {
		t.Fatalf("%d keys over 48 tokens should have every node as a replica, got %v", clusterKeys, owners)
	}

	t.Run("DiscoversEveryNodeFromOneContactPoint", func(t *testing.T) {
		log := &driverLog{}
		session, watcher, observer := clusterSession(t, c, singleReplica, gocql.One,
			func(config *gocql.ClusterConfig) { config.Logger = log })
		if got := watcher.known(); strings.Join(got, ",") != strings.Join(all, ",") {
			t.Fatalf("gocql added hosts %v, expected %v", got, all)
		}
		// Round robin over unrouted statements reaches every node.
		seen := map[string]bool{}
		for i := 0; i < 30 && len(seen) < clusterNodes; i++ {
			var release string
			if err := session.Query("SELECT release_version FROM system.local").Scan(&release); err != nil {
				t.Fatal(err)
			}
			seen[observer.latest()] = true
		}
		if len(seen) != clusterNodes {
			t.Errorf("unrouted queries reached %v only", seen)
		}
		// gocql logs the peers rows it rejects, and failed dials.
		if lines := log.all(); len(lines) > 0 {
			t.Errorf("gocql logged: %q", lines)
		}
	})

	t.Run("PreparedStatementsGoToTheReplicaOfTheirKey", func(t *testing.T) {
		session, _, observer := clusterSession(t, c, singleReplica, gocql.One, nil)
		read := func(k int) (string, string, error) {
			var v string
			err := session.Query("SELECT v FROM t WHERE k = ?", k).Scan(&v)
			return v, observer.latest(), err
		}
		for k := 0; k < clusterKeys; k++ {
			if err := session.Query("INSERT INTO t (k, v) VALUES (?, ?)", k, fmt.Sprintf("value %d", k)).Exec(); err != nil {
				t.Fatal(err)
			}
			if coordinator := observer.latest(); coordinator != replicaOf[k] {
				t.Errorf("insert of key %d coordinated by %s, its replica is %s", k, coordinator, replicaOf[k])
			}
			v, coordinator, err := read(k)
			if err != nil {
				t.Fatal(err)
			}
			if coordinator != replicaOf[k] || v != fmt.Sprintf("value %d", k) {
				t.Errorf("select of key %d: %q from %s, its replica is %s", k, v, coordinator, replicaOf[k])
			}
		}
	})

	t.Run("AwaitsSchemaAgreementAfterCreateTable", func(t *testing.T) {
		session, _, _ := clusterSession(t, c, threeReplicas, gocql.One, nil)
		// gocql itself waits for agreement before Exec returns a DDL result.
		mustExec(t, session, "CREATE TABLE agreed (k int PRIMARY KEY, n int)")
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := session.AwaitSchemaAgreement(ctx); err != nil {
			t.Fatalf("AwaitSchemaAgreement: %v", err)
		}
		// Every node knows the table: a write at ALL reaches them all, and
		// each node's system_schema lists its columns.
		if err := session.Query("INSERT INTO agreed (k, n) VALUES (1, 1)").Consistency(gocql.All).Exec(); err != nil {
			t.Fatal(err)
		}
		for _, address := range all {
			pinned := pinnedSession(t, c, address)
			iter := pinned.Query("SELECT column_name FROM system_schema.columns WHERE keyspace_name = ? AND table_name = 'agreed'",
				threeReplicas).Iter()
			var names []string
			var name string
			for iter.Scan(&name) {
				names = append(names, name)
			}
			if err := iter.Close(); err != nil {
				t.Fatal(err)
			}
			sort.Strings(names)
			if strings.Join(names, ",") != "k,n" {
				t.Errorf("%s: columns of the new table %v", address, names)
			}
		}
	})

	t.Run("MetadataFollowsATableCreatedThroughAnotherNode", func(t *testing.T) {
		// The control connection is on node 1, the only contact point.
		session, _, _ := clusterSession(t, c, threeReplicas, gocql.One, nil)
		// gocql serves keyspace metadata from a cache that a SCHEMA_CHANGE
		// event on its control connection clears (a second after it
		// arrives): fill the cache first.
		keyspace, err := session.KeyspaceMetadata(threeReplicas)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := keyspace.Tables["elsewhere"]; ok {
			t.Fatal("table elsewhere exists before it was created")
		}
		mustExec(t, pinnedSession(t, c, clusterAddress(2)),
			"CREATE TABLE "+threeReplicas+".elsewhere (k int PRIMARY KEY, n int)")
		var table *gocql.TableMetadata
		for deadline := time.Now().Add(5 * time.Second); table == nil && time.Now().Before(deadline); {
			time.Sleep(250 * time.Millisecond)
			if keyspace, err = session.KeyspaceMetadata(threeReplicas); err != nil {
				t.Fatal(err)
			}
			table = keyspace.Tables["elsewhere"]
		}
		if table == nil {
			t.Fatal("the driver never learned of a table created through another node")
		}
		if len(table.PartitionKey) != 1 || table.PartitionKey[0].Name != "k" || table.Columns["n"] == nil {
			t.Errorf("table metadata: partition key %v, columns %v", table.PartitionKey, table.Columns)
		}
	})

	// Last: it kills node 3 (and restarts it).
	t.Run("QuorumRequestsSurviveAKilledNode", func(t *testing.T) {
		victim := 3
		dead := clusterAddress(victim)
		session, watcher, observer := clusterSession(t, c, threeReplicas, gocql.Quorum,
			func(config *gocql.ClusterConfig) {
				// gocql retries nothing by default; with this it tries the
				// next host on any error, a broken connection included.
				config.RetryPolicy = &gocql.SimpleRetryPolicy{NumRetries: 2}
			})
		for k := 0; k < clusterKeys; k++ {
			if err := session.Query("INSERT INTO t (k, v) VALUES (?, 'before')", k).Exec(); err != nil {
				t.Fatal(err)
			}
		}
		// Rows whose only replica is the victim (QUORUM of one is one).
		var victimsKeys []int
		for k := 0; k < clusterKeys; k++ {
			if replicaOf[k] == dead {
				victimsKeys = append(victimsKeys, k)
				mustExec(t, session, fmt.Sprintf("INSERT INTO %s.t (k, v) VALUES (%d, 'durable')", singleReplica, k))
			}
		}
		pid, err := c.pid(victim)
		if err != nil {
			t.Fatal(err)
		}
		restarted := false
		restart := func() {
			if !restarted {
				restarted = true
				if err := c.startNode(victim); err != nil {
					t.Fatal(err)
				}
				c.waitUntilServing(t, victim)
			}
		}
		defer restart()
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		// No wait for gocql or the nodes to notice the death. A request in
		// flight on the killed node's connection when gocql closes it ends
		// with context.Canceled, which gocql never retries (its retry policy
		// is not asked): the driver's abort, not the cluster's answer, so
		// that request alone is sent again.
		used := map[string]bool{}
		for k := 0; k < clusterKeys; k++ {
			insert := session.Query("INSERT INTO t (k, v) VALUES (?, 'after')", k)
			err := insert.Exec()
			if errors.Is(err, context.Canceled) {
				err = insert.Exec()
			}
			if err != nil {
				t.Fatalf("insert of key %d at QUORUM: %v", k, err)
			}
			used[observer.latest()] = true
			var v string
			err = session.Query("SELECT v FROM t WHERE k = ?", k).Scan(&v)
			if errors.Is(err, context.Canceled) {
				err = session.Query("SELECT v FROM t WHERE k = ?", k).Scan(&v)
			}
			if err != nil {
				t.Fatalf("select of key %d at QUORUM: %v", k, err)
			}
			used[observer.latest()] = true
			if v != "after" {
				t.Errorf("key %d: %q", k, v)
			}
		}
		if used[dead] {
			t.Errorf("a request succeeded on the dead node: %v", used)
		}
		if !watcher.isDown(dead) {
			t.Errorf("gocql did not mark %s down", dead)
		}

		// Once the nodes convict the dead one, ALL is refused up front.
		var unavailable *gocql.RequestErrUnavailable
		waitUntil(t, 30*time.Second, "the nodes to refuse ALL with Unavailable", func() bool {
			err := session.Query("SELECT v FROM t WHERE k = 1").Consistency(gocql.All).
				RetryPolicy(nil).Exec()
			return errors.As(err, &unavailable)
		})
		if unavailable.Consistency != gocql.All || unavailable.Required != 3 || unavailable.Alive != 2 {
			t.Errorf("Unavailable %v, expected ALL, 3 required, 2 alive", unavailable)
		}

		// Back up: gocql learns it from the node's UP event (and waits 10 s
		// before using a 4.1 node again); the victim then coordinates its
		// own keys again, has kept the acknowledged writes, and takes
		// statements gocql prepared on it before it died (UNPREPARED, then
		// prepared again).
		restart()
		waitUntil(t, 40*time.Second, "gocql to see "+dead+" up", func() bool { return !watcher.isDown(dead) })
		for _, k := range victimsKeys {
			var v string
			waitUntil(t, 10*time.Second, "a read of key "+strconv.Itoa(k), func() bool {
				err := session.Query("SELECT v FROM "+singleReplica+".t WHERE k = ?", k).Scan(&v)
				return err == nil
			})
			if coordinator := observer.latest(); coordinator != dead || v != "durable" {
				t.Errorf("key %d after the restart: %q from %s, its replica is %s", k, v, coordinator, dead)
			}
		}
	})
}
