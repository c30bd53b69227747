package sibyl_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocql/gocql"
	"github.com/gocql/gocql/lz4"
)

// Without ProtoVersion gocql probes with v4 (its highest) and keeps it.
func TestConnectDiscoversProtocolV4(t *testing.T) {
	observer := &frameVersions{}
	session := connect(t, func(c *gocql.ClusterConfig) {
		c.ProtoVersion = 0
		c.FrameHeaderObserver = observer
	})
	var release, name string
	if err := session.Query("SELECT release_version, cluster_name FROM system.local").Scan(&release, &name); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(release, "4.1") || name != clusterName {
		t.Errorf("release_version %q, cluster_name %q", release, name)
	}
	versions := observer.all()
	if len(versions) == 0 {
		t.Fatal("no response frame observed")
	}
	for _, v := range versions {
		if v != 4 {
			t.Fatalf("response frame versions %v, expected only 4", versions)
		}
	}
}

// frameVersions records the protocol version of every response frame, and
// how many were compressed.
type frameVersions struct {
	mu         sync.Mutex
	versions   []byte
	compressed int
}

func (o *frameVersions) ObserveFrameHeader(_ context.Context, h gocql.ObservedFrameHeader) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.versions = append(o.versions, byte(h.Version)&0x7f)
	if h.Flags&0x01 != 0 {
		o.compressed++
	}
}

func (o *frameVersions) compressedFrames() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.compressed
}

func (o *frameVersions) all() []byte {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]byte(nil), o.versions...)
}

func TestConnectProtocolV3AndV4(t *testing.T) {
	for _, version := range []int{3, 4} {
		version := version
		t.Run(fmt.Sprint("v", version), func(t *testing.T) {
			observer := &frameVersions{}
			session := connect(t, func(c *gocql.ClusterConfig) {
				c.ProtoVersion = version
				c.FrameHeaderObserver = observer
			})
			var key, dc, rack, partitioner string
			var tokens []string
			var hostID gocql.UUID
			err := session.Query("SELECT key, data_center, rack, partitioner, tokens, host_id FROM system.local WHERE key = ?",
				"local").Scan(&key, &dc, &rack, &partitioner, &tokens, &hostID)
			if err != nil {
				t.Fatal(err)
			}
			if key != "local" || dc != "datacenter1" || rack != "rack1" ||
				!strings.HasSuffix(partitioner, "Murmur3Partitioner") {
				t.Errorf("system.local: key %q dc %q rack %q partitioner %q", key, dc, rack, partitioner)
			}
			if len(tokens) != numTokens {
				t.Errorf("%d tokens, expected %d", len(tokens), numTokens)
			}
			if hostID == (gocql.UUID{}) {
				t.Error("no host_id")
			}
			for _, v := range observer.all() {
				if int(v) != version {
					t.Fatalf("response frame versions %v, expected only %d", observer.all(), version)
				}
			}
		})
	}
}

// Compressed frames (v4): Snappy and LZ4, with a value large enough that
// compression happens, read back whole.
func TestCompression(t *testing.T) {
	big := strings.Repeat("compressible text, ", 2000)
	for _, compressor := range []gocql.Compressor{gocql.SnappyCompressor{}, lz4.LZ4Compressor{}} {
		compressor := compressor
		t.Run(compressor.Name(), func(t *testing.T) {
			observer := &frameVersions{}
			session := connect(t, func(c *gocql.ClusterConfig) {
				c.Compressor = compressor
				c.FrameHeaderObserver = observer
			})
			var echoed string
			if err := session.Query("SELECT cluster_name FROM system.local WHERE key = ?", "local").Scan(&echoed); err != nil {
				t.Fatalf("%v%s", err, serverNote())
			}
			if echoed != clusterName {
				t.Errorf("cluster_name %q", echoed)
			}
			name := "go_compress_" + compressor.Name()
			createKeyspace(t, session, name)
			mustExec(t, session, "CREATE TABLE "+name+".t (k int PRIMARY KEY, v text)")
			if err := session.Query("INSERT INTO "+name+".t (k, v) VALUES (?, ?)", 1, big).Exec(); err != nil {
				t.Fatal(err)
			}
			if err := session.Query("SELECT v FROM "+name+".t WHERE k = ?", 1).Scan(&echoed); err != nil {
				t.Fatal(err)
			}
			if echoed != big {
				t.Errorf("read back %d bytes, wrote %d", len(echoed), len(big))
			}
			if observer.compressedFrames() == 0 {
				t.Error("no response frame had the compression flag")
			}
		})
	}
}

// gocql 1.3.2 speaks the pre-release v5 of Cassandra 3.x betas (the beta flag,
// v4-style frames all along); Cassandra 4.1 speaks the final v5, which frames
// everything after STARTUP in CRC-checked segments (gocql issue 1522, fixed
// in gocql 2.0). So against Cassandra 4.1 a gocql 1.3.2 session forced to v5
// fails to come up, and the node goes on serving others.
func TestConnectProtocolV5IsTheOldBetaInGocql132(t *testing.T) {
	log := &driverLog{}
	cluster := newCluster(log)
	cluster.ProtoVersion = 5
	cluster.Timeout = 3 * time.Second
	cluster.ConnectTimeout = 3 * time.Second
	cluster.ReconnectionPolicy = &gocql.ConstantReconnectionPolicy{MaxRetries: 0}
	started := time.Now()
	session, err := cluster.CreateSession()
	if err == nil {
		// A session came up: then queries must work over it.
		defer session.Close()
		var release string
		if qerr := session.Query("SELECT release_version FROM system.local").Scan(&release); qerr != nil {
			t.Fatalf("v5 session came up but a query failed: %v", qerr)
		}
		t.Fatalf("gocql 1.3.2's beta v5 connected (release %s); Cassandra 4.1 expects segments after STARTUP", release)
	}
	t.Logf("v5: %v after %v", err, time.Since(started))
	// The node still serves v4.
	other := connect(t, nil)
	var release string
	if err := other.Query("SELECT release_version FROM system.local").Scan(&release); err != nil {
		t.Fatalf("after the v5 attempt: %v%s", err, serverNote())
	}
}

// Token-aware routing over a round robin: the driver reads the ring (8 vnode
// tokens of one node) and routes prepared statements by partition key.
func TestTokenAwareRouting(t *testing.T) {
	session := connect(t, func(c *gocql.ClusterConfig) {
		c.PoolConfig.HostSelectionPolicy = gocql.TokenAwareHostPolicy(gocql.RoundRobinHostPolicy())
	})
	createKeyspace(t, session, "go_routing")
	mustExec(t, session, "CREATE TABLE go_routing.kv (k text, c int, v text, PRIMARY KEY ((k, c)))")
	for i := 0; i < 20; i++ {
		if err := session.Query("INSERT INTO go_routing.kv (k, c, v) VALUES (?, ?, ?)", "key", i, "v").Exec(); err != nil {
			t.Fatal(err)
		}
	}
	query := session.Query("SELECT v FROM go_routing.kv WHERE k = ? AND c = ?", "key", 7)
	routingKey, err := query.GetRoutingKey()
	if err != nil {
		t.Fatal(err)
	}
	// A composite partition key: each component as <len:2><bytes><0>.
	expected := []byte{0, 3, 'k', 'e', 'y', 0, 0, 4, 0, 0, 0, 7, 0}
	if string(routingKey) != string(expected) {
		t.Errorf("routing key % x, expected % x", routingKey, expected)
	}
	iter := query.Iter()
	var v string
	if !iter.Scan(&v) || v != "v" {
		t.Errorf("read back %q", v)
	}
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	if host := iter.Host(); host == nil || host.Port() != server.port || len(host.Tokens()) != numTokens {
		t.Errorf("routed to %v", host)
	} else if host.DataCenter() != "datacenter1" || host.Rack() != "rack1" || host.Version().Major != 4 ||
		host.Version().Minor != 1 || host.ClusterName() != clusterName || host.Partitioner() == "" {
		t.Errorf("host dc %q rack %q version %v cluster %q partitioner %q", host.DataCenter(), host.Rack(),
			host.Version(), host.ClusterName(), host.Partitioner())
	}
}

// 200 queries at once over one connection, every fourth of another shape, so
// that a mixed-up stream id shows.
func TestConcurrentQueriesOverOneConnection(t *testing.T) {
	session := connect(t, func(c *gocql.ClusterConfig) { c.NumConns = 1 })
	var pairs [][2]string
	iter := session.Query("SELECT keyspace_name, table_name FROM system_schema.tables").Iter()
	var ks, table string
	for iter.Scan(&ks, &table) {
		pairs = append(pairs, [2]string{ks, table})
	}
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	if len(pairs) < 10 {
		t.Fatalf("%d tables", len(pairs))
	}
	errs := make(chan error, 200)
	var wg sync.WaitGroup
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if i%4 == 3 {
				var name string
				err := session.Query("/* unprepared */ SELECT cluster_name FROM system.local WHERE key = 'local'").Scan(&name)
				if err == nil && name != clusterName {
					err = fmt.Errorf("query %d: cluster_name %q", i, name)
				}
				errs <- err
				return
			}
			pair := pairs[i%len(pairs)]
			var gotKs, gotTable string
			err := session.Query("SELECT keyspace_name, table_name FROM system_schema.tables "+
				"WHERE keyspace_name = ? AND table_name = ?", pair[0], pair[1]).Scan(&gotKs, &gotTable)
			if err == nil && (gotKs != pair[0] || gotTable != pair[1]) {
				err = fmt.Errorf("query %d for %v read %s.%s", i, pair, gotKs, gotTable)
			}
			errs <- err
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("%v%s", err, serverNote())
		}
	}
}
