// pgjdbc's write APIs in transactions against zproxy (or, with E2E_POSTGRES,
// PostgreSQL): issue 15.
//
// Usage: java -cp DIR:/usr/share/java/postgresql.jar JdbcWrites HOST PORT USER DBNAME
//
// Runs the scenario twice, with pgjdbc's defaults and with
// reWriteBatchedInserts=true (which folds a batch of INSERTs into multi-row
// INSERTs): setAutoCommit(false) with addBatch/executeBatch, commit and
// rollback, a batch failing on a duplicate key; getGeneratedKeys of a
// BIGSERIAL and an identity column (RETURN_GENERATED_KEYS, which appends
// RETURNING *, and column names, which append RETURNING "id"); the
// Savepoint API; and a write conflict between two REPEATABLE READ
// connections surfacing as a PSQLException with SQLState 40001. Prints one
// line per check and "PASS" at the end; exits non-zero at the first
// mismatch.

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.postgresql.util.PSQLException;

public class JdbcWrites {
    static String host, port, user, db;

    static void check(String what, Object got, Object want) {
        if (!java.util.Objects.equals(got, want)) {
            System.out.println("FAIL: " + what + ": got " + got + ", want " + want);
            System.exit(1);
        }
        System.out.println("ok  " + what);
    }

    // extra is the run's connection property (name=value, or empty).
    static String extra = "";

    static Connection connect() throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", user);
        props.setProperty("connectTimeout", "10");
        if (!extra.isEmpty()) {
            String[] kv = extra.split("=", 2);
            props.setProperty(kv[0], kv[1]);
        }
        return DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/" + db, props);
    }

    static long count(Connection c, String table) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static List<Long> longs(ResultSet rs, String column) throws SQLException {
        List<Long> out = new ArrayList<>();
        while (rs.next()) {
            out.add(rs.getLong(column));
        }
        rs.close();
        return out;
    }

    static void exec(Connection c, String... sqls) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String s : sqls) {
                st.execute(s);
            }
        }
    }

    // expectState runs body and checks that it throws an SQLException whose
    // SQLState (or that of its next exception, for a batch) is state.
    interface Body { void run() throws SQLException; }

    static SQLException expectState(String what, String state, Body body) {
        try {
            body.run();
        } catch (SQLException e) {
            String got = e.getSQLState();
            if (e instanceof BatchUpdateException && e.getNextException() != null) {
                got = e.getNextException().getSQLState();
            }
            check(what + " SQLState", got, state);
            return e;
        }
        System.out.println("FAIL: " + what + ": no exception, want SQLState " + state);
        System.exit(1);
        return null;
    }

    static void batches(String props, String t, Connection obs) throws Exception {
        final int n = 250;
        try (Connection c = connect()) {
            c.setAutoCommit(false);
            String ins = "INSERT INTO " + t + " (k, v) VALUES (?, ?)";
            try (PreparedStatement ps = c.prepareStatement(ins)) {
                for (int i = 1; i <= n; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "v" + i);
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                check(props + " batch size", counts.length, n);
                boolean ok = true;
                for (int x : counts) {
                    ok &= x == 1 || x == Statement.SUCCESS_NO_INFO;
                }
                check(props + " batch counts are 1 or SUCCESS_NO_INFO", ok, true);
            }
            check(props + " the block sees its batch", count(c, t), (long) n);
            check(props + " others do not before commit", count(obs, t), 0L);
            c.rollback();
            check(props + " rollback drops the batch", count(obs, t), 0L);

            try (PreparedStatement ps = c.prepareStatement(ins)) {
                for (int i = 1; i <= n; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "v" + i);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
            check(props + " commit keeps the batch", count(obs, t), (long) n);

            // A batch with a duplicate key in its middle: the block fails and
            // rollback leaves what was committed before.
            try (PreparedStatement ps = c.prepareStatement(ins)) {
                for (int i = n + 1; i <= n + 20; i++) {
                    ps.setInt(1, i == n + 10 ? 5 : i);
                    ps.setString(2, "dup?");
                    ps.addBatch();
                }
                expectState(props + " batch with a duplicate", "23505", ps::executeBatch);
            }
            expectState(props + " the failed block", "25P02", () -> count(c, t));
            c.rollback();
            check(props + " nothing of the failed batch", count(obs, t), (long) n);

            // Updates and deletes batched in one transaction.
            try (PreparedStatement up = c.prepareStatement("UPDATE " + t + " SET v = ? WHERE k = ?");
                 PreparedStatement del = c.prepareStatement("DELETE FROM " + t + " WHERE k = ?")) {
                for (int i = 1; i <= 10; i++) {
                    up.setString(1, "u" + i);
                    up.setInt(2, i);
                    up.addBatch();
                    del.setInt(1, n + 1 - i);
                    del.addBatch();
                }
                check(props + " update batch counts", Arrays.toString(up.executeBatch()), Arrays.toString(new int[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
                del.executeBatch();
            }
            c.commit();
            check(props + " batched deletes committed", count(obs, t), (long) n - 10);
            try (Statement st = obs.createStatement();
                 ResultSet rs = st.executeQuery("SELECT count(*) FROM " + t + " WHERE v LIKE 'u%'")) {
                rs.next();
                check(props + " batched updates committed", rs.getLong(1), 10L);
            }
        }
    }

    static void generatedKeys(String props, String serial, String ident) throws Exception {
        try (Connection c = connect()) {
            c.setAutoCommit(false);
            // RETURN_GENERATED_KEYS: pgjdbc appends RETURNING *.
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + serial + " (name) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
                ps.setString(1, "one");
                check(props + " insert count", ps.executeUpdate(), 1);
                ResultSet rs = ps.getGeneratedKeys();
                check(props + " RETURNING * has every column", rs.getMetaData().getColumnCount(), 3);
                check(props + " generated key column", rs.getMetaData().getColumnName(1), "id");
                check(props + " bigserial key", longs(rs, "id"), List.of(1L));
            }
            // Column names: RETURNING "id".
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + serial + " (name) VALUES (?)", new String[] {"id"})) {
                ps.setString(1, "two");
                ps.executeUpdate();
                ResultSet rs = ps.getGeneratedKeys();
                check(props + " RETURNING \"id\" only", rs.getMetaData().getColumnCount(), 1);
                check(props + " bigserial key by name", longs(rs, "id"), List.of(2L));
            }
            // A batch with generated keys: one key per row.
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + serial + " (name) VALUES (?)", new String[] {"id"})) {
                for (String s : new String[] {"three", "four", "five"}) {
                    ps.setString(1, s);
                    ps.addBatch();
                }
                ps.executeBatch();
                check(props + " batch generated keys", longs(ps.getGeneratedKeys(), "id"), List.of(3L, 4L, 5L));
            }
            c.commit();
            // An identity column, through a plain Statement.
            try (Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO " + ident + " (name) VALUES ('a'), ('b')", Statement.RETURN_GENERATED_KEYS);
                check(props + " identity keys", longs(st.getGeneratedKeys(), "id"), List.of(1L, 2L));
                st.executeUpdate("INSERT INTO " + ident + " (name) VALUES ('c')", new String[] {"id", "name"});
                ResultSet rs = st.getGeneratedKeys();
                rs.next();
                check(props + " identity key and name", rs.getLong("id") + "/" + rs.getString("name"), "3/c");
                rs.close();
            }
            c.rollback();
            try (Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO " + ident + " (name) VALUES ('d')", Statement.RETURN_GENERATED_KEYS);
                check(props + " identity values are not reused after rollback", longs(st.getGeneratedKeys(), "id"), List.of(4L));
            }
            c.commit();
            check(props + " identity rows committed", count(c, ident), 1L);
            c.commit();
        }
    }

    static void savepoints(String props, String t, Connection obs) throws Exception {
        try (Connection c = connect()) {
            c.setAutoCommit(false);
            exec(c, "INSERT INTO " + t + " VALUES (1000, 'outer')");
            Savepoint named = c.setSavepoint("sp_named");
            check(props + " named savepoint", named.getSavepointName(), "sp_named");
            exec(c, "INSERT INTO " + t + " VALUES (1001, 'inner')");
            c.rollback(named);
            Savepoint unnamed = c.setSavepoint();
            exec(c, "INSERT INTO " + t + " VALUES (1002, 'kept')");
            c.releaseSavepoint(unnamed);
            Savepoint again = c.setSavepoint();
            expectState(props + " duplicate after a savepoint", "23505", () -> exec(c, "INSERT INTO " + t + " VALUES (1000, 'dup')"));
            c.rollback(again);
            check(props + " rollback(savepoint) recovers the block", count(c, t + " WHERE k >= 1000"), 2L);
            c.commit();
            check(props + " savepoints: outer and released rows committed", count(obs, t + " WHERE k IN (1000, 1002)"), 2L);
            check(props + " savepoints: rolled-back row absent", count(obs, t + " WHERE k = 1001"), 0L);
        }
    }

    static void conflict(String props, String t) throws Exception {
        try (Connection c1 = connect(); Connection c2 = connect()) {
            exec(c1, "INSERT INTO " + t + " VALUES (1, 100)");
            for (Connection c : new Connection[] {c1, c2}) {
                c.setAutoCommit(false);
                c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            }
            try (Statement st = c1.createStatement(); ResultSet rs = st.executeQuery("SELECT bal FROM " + t + " WHERE id = 1")) {
                rs.next();
                check(props + " c1 reads the balance", rs.getInt(1), 100);
            }
            exec(c2, "UPDATE " + t + " SET bal = bal + 1 WHERE id = 1");
            c2.commit();
            // PostgreSQL's REPEATABLE READ refuses c1's UPDATE; zproxy finds
            // the conflict at c1's COMMIT (first committer wins). Either way
            // the client gets SQLState 40001 and nothing of c1.
            SQLException e = expectState(props + " write conflict", "40001", () -> {
                exec(c1, "UPDATE " + t + " SET bal = bal + 10 WHERE id = 1");
                c1.commit();
            });
            check(props + " the conflict is a PSQLException", e instanceof PSQLException, true);
            c1.rollback();
            c1.setAutoCommit(true);
            try (Statement st = c1.createStatement(); ResultSet rs = st.executeQuery("SELECT bal FROM " + t + " WHERE id = 1")) {
                rs.next();
                check(props + " only the first committer's update", rs.getInt(1), 101);
            }
            c2.rollback();
        }
    }

    public static void main(String[] args) throws Exception {
        host = args[0];
        port = args[1];
        user = args[2];
        db = args[3];
        String[][] runs = {{"", "jw"}, {"reWriteBatchedInserts=true", "jwr"}};
        for (String[] run : runs) {
            String props = run[0], p = run[1];
            extra = props;
            try (Connection obs = connect()) {
                exec(obs,
                    "DROP TABLE IF EXISTS " + p + "_batch",
                    "DROP TABLE IF EXISTS " + p + "_serial",
                    "DROP TABLE IF EXISTS " + p + "_ident",
                    "DROP TABLE IF EXISTS " + p + "_acct",
                    "CREATE TABLE " + p + "_batch (k integer PRIMARY KEY, v text)",
                    "CREATE TABLE " + p + "_serial (id bigserial PRIMARY KEY, name text, created timestamptz DEFAULT now())",
                    "CREATE TABLE " + p + "_ident (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text)",
                    "CREATE TABLE " + p + "_acct (id integer PRIMARY KEY, bal integer NOT NULL)");
                String label = props.isEmpty() ? "default" : props;
                batches(label, p + "_batch", obs);
                generatedKeys(label, p + "_serial", p + "_ident");
                savepoints(label, p + "_batch", obs);
                conflict(label, p + "_acct");
            }
        }
        System.out.println("PASS");
    }
}
