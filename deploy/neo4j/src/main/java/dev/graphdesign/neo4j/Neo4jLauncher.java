package dev.graphdesign.neo4j;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.io.ByteUnit;
import org.neo4j.logging.Level;
import org.neo4j.logging.log4j.Log4jLogProvider;

/**
 * Starts an embedded Neo4j 5.26 Community DBMS with only the Bolt connector, for local development
 * and tests of the graph design service.
 *
 * <p>SECURITY: authentication is DISABLED and Bolt is unencrypted. This is only acceptable because
 * the connector listens on the loopback interface (127.0.0.1) and the data is dev/test data. Never
 * expose this launcher on another interface or use it in production.
 *
 * <p>Options (command line wins over environment, environment over default):
 *
 * <pre>
 *   --port N          NEO4J_BOLT_PORT        Bolt port on 127.0.0.1          (7687)
 *   --data DIR        NEO4J_DATA_DIR         DBMS home: data/, logs/, ready   (.data/neo4j)
 *   --pagecache SIZE  NEO4J_PAGECACHE        page cache size, e.g. 512m       (512m)
 *   --tx-log-size SIZE NEO4J_TX_LOG_SIZE     tx log rotation threshold        (32m)
 *   --tx-log-keep P   NEO4J_TX_LOG_KEEP      tx log retention policy          (128M size)
 *   --conf FILE       NEO4J_CONF_FILE        optional neo4j.conf-style file with extra settings
 *   --parent-pid PID  NEO4J_PARENT_PID       shut down cleanly when that process exits (0 = off)
 *   --train                                  run a small Cypher workload after startup, then exit
 *                                            (used with -XX:ArchiveClassesAtExit to build the
 *                                            class-data-sharing archive that speeds up startup)
 * </pre>
 *
 * <p>When the DBMS is up and Bolt accepts connections it prints exactly one line {@code
 * NEO4J_READY bolt://127.0.0.1:PORT} on stdout and writes {@code DATA/ready} (atomically). The
 * marker is removed at startup and again on shutdown. SIGTERM/SIGINT trigger a clean shutdown via a
 * JVM shutdown hook. Neo4j's own log goes to stderr and to DATA/logs/debug.log.
 */
public final class Neo4jLauncher {

  private static final String READY_MARKER = "ready";

  private Neo4jLauncher() {}

  public static void main(String[] args) throws Exception {
    final Options opts;
    try {
      opts = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("neo4j-launcher: " + e.getMessage());
      System.err.println(Options.USAGE);
      System.exit(2);
      return;
    }

    final PrintStream out = System.out;
    final Path home = opts.dataDir.toAbsolutePath().normalize();
    Files.createDirectories(home);
    final Path ready = home.resolve(READY_MARKER);
    Files.deleteIfExists(ready);

    final long started = System.nanoTime();
    log("starting Neo4j (home=" + home + ", bolt=127.0.0.1:" + opts.port
        + ", pagecache=" + opts.pageCache + ")");

    DatabaseManagementServiceBuilder builder =
        new DatabaseManagementServiceBuilder(home)
            .setUserLogProvider(new Log4jLogProvider(System.err, Level.INFO))
            // One cached plan per statement, whatever the sizes of its list parameters: by
            // default Cypher plans a statement again for each combination of list-size
            // buckets, and the service's statements take several lists whose sizes follow
            // the batch (each plan of the largest costs seconds of CPU). Their lookups are
            // pinned by index hints, so a size-specific plan gains nothing. A --conf file
            // may set internal.cypher.use_parameter_size back to true.
            .setConfig(GraphDatabaseInternalSettings.cypher_size_hint_parameters, false);
    if (opts.confFile != null) {
      builder.loadPropertiesFromFile(opts.confFile);
    }
    builder
        // Bolt only, on loopback. Auth off + no TLS: dev/test only (see class comment).
        .setConfig(BoltConnector.enabled, true)
        .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", opts.port))
        .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
        .setConfig(GraphDatabaseSettings.default_listen_address, new SocketAddress("127.0.0.1"))
        .setConfig(GraphDatabaseSettings.auth_enabled, false)
        .setConfig(HttpConnector.enabled, false)
        .setConfig(HttpsConnector.enabled, false)
        // Fast, quiet startup.
        .setConfig(GraphDatabaseSettings.udc_enabled, false)
        .setConfig(BoltConnector.server_bolt_telemetry_enabled, false)
        .setConfig(GraphDatabaseSettings.pagecache_warmup_enabled, false)
        .setConfig(GraphDatabaseSettings.filewatcher_enabled, false)
        // Modest memory / disk footprint.
        .setConfig(GraphDatabaseSettings.pagecache_memory, opts.pageCache)
        .setConfig(GraphDatabaseSettings.logical_log_rotation_threshold, opts.txLogSize)
        .setConfig(GraphDatabaseSettings.keep_logical_logs, opts.txLogKeep)
        .setConfig(GraphDatabaseSettings.preallocate_logical_logs, false)
        // Quick shutdown: Netty's default 5s graceful quiet period would add 5s to every stop.
        .setConfig(GraphDatabaseSettings.shutdown_transaction_end_timeout, Duration.ofSeconds(5))
        .setConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0)
        .setConfig(GraphDatabaseInternalSettings.netty_server_shutdown_timeout, Duration.ofSeconds(5));

    final DatabaseManagementService dbms;
    try {
      dbms = builder.build();
    } catch (RuntimeException e) {
      log("FAILED to start Neo4j: " + e);
      e.printStackTrace(System.err);
      System.exit(1);
      return;
    }

    final CountDownLatch stopped = new CountDownLatch(1);
    final AtomicBoolean shuttingDown = new AtomicBoolean(false);
    Thread hook =
        new Thread(
            () -> {
              if (!shuttingDown.compareAndSet(false, true)) {
                return;
              }
              log("shutting down Neo4j ...");
              try {
                Files.deleteIfExists(ready);
              } catch (IOException ignored) {
                // best effort
              }
              try {
                dbms.shutdown();
                log("Neo4j stopped cleanly");
              } catch (RuntimeException e) {
                log("error during shutdown: " + e);
              } finally {
                stopped.countDown();
              }
            },
            "neo4j-launcher-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);

    if (opts.parentPid > 0) {
      startParentWatchdog(opts.parentPid);
    }

    GraphDatabaseService db = dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
    if (!db.isAvailable(TimeUnit.SECONDS.toMillis(120))) {
      log("FAILED: database '" + db.databaseName() + "' not available after 120s");
      System.exit(1);
    }
    // Warm up the Cypher stack so the first client query is not the slow one.
    db.executeTransactionally("RETURN 1");

    if (opts.train) {
      // Training run for the class-data-sharing archive (Bolt may be on port 0 = any free port).
      train(db);
      log(String.format("training workload done in %.1fs; exiting",
          (System.nanoTime() - started) / 1e9));
      System.exit(0);
    }

    if (!waitForPort(opts.port, Duration.ofSeconds(60))) {
      log("FAILED: Bolt is not accepting connections on 127.0.0.1:" + opts.port);
      System.exit(1);
    }

    String uri = "bolt://127.0.0.1:" + opts.port;
    Path tmp = home.resolve(READY_MARKER + ".tmp");
    Files.writeString(tmp, uri + "\n" + ProcessHandle.current().pid() + "\n",
        StandardCharsets.UTF_8);
    Files.move(tmp, ready, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    log(String.format("ready in %.1fs", (System.nanoTime() - started) / 1e9));
    out.println("NEO4J_READY " + uri);
    out.flush();

    // Keep the main thread alive until the shutdown hook has run.
    stopped.await();
  }

  /** Exercises the common Cypher paths (schema, MERGE, traversal, parameters, delete). */
  private static void train(GraphDatabaseService db) {
    String[] queries = {
      "CREATE CONSTRAINT train_id IF NOT EXISTS FOR (n:TrainNode) REQUIRE n.id IS UNIQUE",
      "CREATE INDEX train_name IF NOT EXISTS FOR (n:TrainNode) ON (n.name)",
      "UNWIND range(1, 50) AS i MERGE (n:TrainNode {id: i}) SET n.name = 'n' + i, n.tags = ['a', 'b']",
      "MATCH (a:TrainNode), (b:TrainNode) WHERE b.id = a.id + 1 MERGE (a)-[r:NEXT]->(b) SET r.w = 1",
      "MATCH p = (a:TrainNode {id: 1})-[:NEXT*1..5]->(b) RETURN count(p) AS c",
      "MATCH (n:TrainNode) WHERE n.id > $x RETURN n.id AS id, n.name AS name ORDER BY id LIMIT 10",
      "MATCH (n:TrainNode {id: $x}) OPTIONAL MATCH (n)-[r]-(m) RETURN n, collect(r), collect(m)",
      "MATCH (n:TrainNode) WITH n.id % 10 AS k, count(*) AS c RETURN k, c ORDER BY k",
      "CALL db.labels() YIELD label RETURN collect(label) AS labels",
      "SHOW INDEXES YIELD name RETURN collect(name) AS names",
      "MATCH (n:TrainNode) DETACH DELETE n",
      "DROP INDEX train_name IF EXISTS",
      "DROP CONSTRAINT train_id IF EXISTS",
    };
    for (int round = 0; round < 2; round++) {
      for (String q : queries) {
        long t0 = System.nanoTime();
        db.executeTransactionally(q, java.util.Map.of("x", 5L + round));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        if (ms > 1000) {
          log("training query took " + ms + " ms: " + q);
        }
      }
    }
  }

  private static boolean waitForPort(int port, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
        return true;
      } catch (IOException e) {
        Thread.sleep(100);
      }
    }
    return false;
  }

  /** Exits (running the shutdown hook) when the given parent process disappears. */
  private static void startParentWatchdog(long parentPid) {
    Thread t =
        new Thread(
            () -> {
              while (true) {
                boolean alive = ProcessHandle.of(parentPid).map(ProcessHandle::isAlive)
                    .orElse(false);
                if (!alive) {
                  log("parent process " + parentPid + " is gone; exiting");
                  System.exit(0);
                }
                try {
                  Thread.sleep(1000);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "neo4j-launcher-parent-watchdog");
    t.setDaemon(true);
    t.start();
  }

  private static void log(String msg) {
    System.err.println("[neo4j-launcher] " + msg);
    System.err.flush();
  }

  /** Parsed command line / environment options. */
  static final class Options {
    static final String USAGE =
        "usage: java -jar neo4j-launcher.jar [--port N] [--data DIR] [--pagecache SIZE]"
            + " [--tx-log-size SIZE] [--tx-log-keep POLICY] [--conf FILE] [--parent-pid PID]"
            + " [--train]";

    int port;
    Path dataDir;
    long pageCache;
    long txLogSize;
    String txLogKeep;
    Path confFile;
    long parentPid;
    boolean train;

    static Options parse(String[] args) {
      String port = env("NEO4J_BOLT_PORT", "7687");
      String data = env("NEO4J_DATA_DIR", ".data/neo4j");
      String pageCache = env("NEO4J_PAGECACHE", "512m");
      String txLogSize = env("NEO4J_TX_LOG_SIZE", "32m");
      String txLogKeep = env("NEO4J_TX_LOG_KEEP", "128M size");
      String conf = env("NEO4J_CONF_FILE", "");
      String parent = env("NEO4J_PARENT_PID", "0");
      boolean train = false;
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        String key = a;
        String value = null;
        int eq = a.indexOf('=');
        if (a.startsWith("--") && eq > 0) {
          key = a.substring(0, eq);
          value = a.substring(eq + 1);
        }
        if (key.equals("-h") || key.equals("--help")) {
          System.out.println(USAGE);
          System.exit(0);
        }
        if (key.equals("--train") && value == null) {
          train = true;
          continue;
        }
        if (value == null) {
          if (i + 1 >= args.length) {
            throw new IllegalArgumentException("missing value for " + key);
          }
          value = args[++i];
        }
        switch (key) {
          case "--port" -> port = value;
          case "--data" -> data = value;
          case "--pagecache" -> pageCache = value;
          case "--tx-log-size" -> txLogSize = value;
          case "--tx-log-keep" -> txLogKeep = value;
          case "--conf" -> conf = value;
          case "--parent-pid" -> parent = value;
          default -> throw new IllegalArgumentException("unknown option " + key);
        }
      }
      Options o = new Options();
      o.train = train;
      try {
        o.port = Integer.parseInt(port.trim());
        o.parentPid = Long.parseLong(parent.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("not a number: " + e.getMessage());
      }
      if (o.port < (o.train ? 0 : 1) || o.port > 65535) {
        throw new IllegalArgumentException("port out of range: " + o.port);
      }
      if (data.isBlank()) {
        throw new IllegalArgumentException("empty data directory");
      }
      o.dataDir = Path.of(data);
      o.pageCache = ByteUnit.parse(pageCache.trim());
      o.txLogSize = ByteUnit.parse(txLogSize.trim());
      o.txLogKeep = txLogKeep.trim();
      o.confFile = conf.isBlank() ? null : Path.of(conf);
      return o;
    }

    private static String env(String name, String dflt) {
      String v = System.getenv(name);
      return v == null || v.isEmpty() ? dflt : v;
    }
  }
}
