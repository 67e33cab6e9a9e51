// pgjdbc against zproxy: the scenario of e2e/clients (see doc.go there).
//
// Usage: java -cp DIR:/usr/share/java/postgresql.jar JdbcClient HOST PORT TABLE [NAME=VALUE...]
//
// The NAME=VALUE arguments are extra connection properties, such as
// preferQueryMode=simple (pgjdbc then inlines the parameters as typed
// literals and sends simple Query messages).
//
// At connect pgjdbc sends a startup packet with extra_float_digits = 2 (or
// SET extra_float_digits = 3) and application_name. PreparedStatements go
// through the extended protocol with typed parameters (int4, int8, float8,
// bool, varchar, bytea and uuid in binary, timestamps and dates untyped as
// text); from the fifth execution on (prepareThreshold) pgjdbc switches to a
// named server-side statement and asks for binary results. Prints one line
// per check and exits non-zero on the first mismatch.

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Objects;
import java.util.Properties;
import java.util.UUID;

public class JdbcClient {
    static final String[] COLUMNS = {"id", "sm", "i", "bi", "r", "d", "tx", "vc", "b", "ts", "tz", "dt", "by", "u"};
    // The java.sql.Types pgjdbc derives from the columns' type OIDs, in order
    // (uuid is OTHER; its OID shows in getObject returning a java.util.UUID).
    // getColumnTypeName is not used: pgjdbc answers it after a pg_catalog
    // query with joins (for isAutoIncrement), which zproxy does not serve yet.
    static final int[] SQL_TYPES = {Types.INTEGER, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.REAL,
        Types.DOUBLE, Types.VARCHAR, Types.VARCHAR, Types.BIT, Types.TIMESTAMP, Types.TIMESTAMP, Types.DATE,
        Types.BINARY, Types.OTHER};

    static final Object[][] ROWS = {
        {1, (short) 12345, 2147483647, Long.MIN_VALUE, 1.5f, 3.141592653589793, "héllo, wörld ☃", "varchar", true,
            LocalDateTime.of(2024, 2, 29, 13, 45, 56, 789012000),
            OffsetDateTime.of(2024, 6, 30, 23, 59, 59, 500000000, ZoneOffset.UTC),
            LocalDate.of(2024, 2, 29), new byte[] {0x00, 0x01, (byte) 0xff, 0x27, 0x5c},
            UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")},
        {2, null, null, null, null, null, null, null, null, null, null, null, null, null},
        {3, (short) -32768, 0, Long.MAX_VALUE, -0.25f, 1e300, "", "x", false,
            LocalDateTime.of(1999, 12, 31, 23, 59, 59),
            OffsetDateTime.of(2001, 2, 3, 4, 5, 6, 0, ZoneOffset.ofHoursMinutes(5, 30)),
            LocalDate.of(1900, 1, 1), new byte[0], UUID.fromString("00000000-0000-0000-0000-000000000000")},
    };

    static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("FAIL: " + what);
            System.out.flush();
            System.exit(1);
        }
    }

    static void bind(PreparedStatement ps, int base, Object[] row) throws SQLException {
        int c = base;
        if (row[1] == null) {
            ps.setInt(c++, (Integer) row[0]);
            ps.setNull(c++, Types.SMALLINT);
            ps.setNull(c++, Types.INTEGER);
            ps.setNull(c++, Types.BIGINT);
            ps.setNull(c++, Types.REAL);
            ps.setNull(c++, Types.DOUBLE);
            ps.setNull(c++, Types.VARCHAR);
            ps.setNull(c++, Types.VARCHAR);
            ps.setNull(c++, Types.BOOLEAN);
            ps.setNull(c++, Types.TIMESTAMP);
            ps.setNull(c++, Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setNull(c++, Types.DATE);
            ps.setNull(c++, Types.BINARY);
            ps.setNull(c++, Types.OTHER);
            return;
        }
        ps.setInt(c++, (Integer) row[0]);
        ps.setShort(c++, (Short) row[1]);
        ps.setInt(c++, (Integer) row[2]);
        ps.setLong(c++, (Long) row[3]);
        ps.setFloat(c++, (Float) row[4]);
        ps.setDouble(c++, (Double) row[5]);
        ps.setString(c++, (String) row[6]);
        ps.setString(c++, (String) row[7]);
        ps.setBoolean(c++, (Boolean) row[8]);
        ps.setObject(c++, row[9]);
        ps.setObject(c++, row[10]);
        ps.setObject(c++, row[11]);
        ps.setBytes(c++, (byte[]) row[12]);
        ps.setObject(c++, row[13]);
    }

    static Object read(ResultSet rs, int c) throws SQLException {
        Object v;
        switch (c) {
            case 1: case 3: v = rs.getInt(c); break;
            case 2: v = rs.getShort(c); break;
            case 4: v = rs.getLong(c); break;
            case 5: v = rs.getFloat(c); break;
            case 6: v = rs.getDouble(c); break;
            case 7: case 8: v = rs.getString(c); break;
            case 9: v = rs.getBoolean(c); break;
            case 10: v = rs.getObject(c, LocalDateTime.class); break;
            case 11: v = rs.getObject(c, OffsetDateTime.class); break;
            case 12: v = rs.getObject(c, LocalDate.class); break;
            case 13: v = rs.getBytes(c); break;
            default: v = rs.getObject(c); break; // uuid: java.util.UUID
        }
        return rs.wasNull() ? null : v;
    }

    static boolean same(Object got, Object want) {
        if (got instanceof byte[] && want instanceof byte[]) {
            return Arrays.equals((byte[]) got, (byte[]) want);
        }
        if (got instanceof OffsetDateTime && want instanceof OffsetDateTime) {
            return ((OffsetDateTime) got).isEqual((OffsetDateTime) want);
        }
        return Objects.equals(got, want);
    }

    static String show(Object v) {
        if (v instanceof byte[]) {
            return Arrays.toString((byte[]) v);
        }
        return v == null ? "null" : v + " (" + v.getClass().getSimpleName() + ")";
    }

    static void checkRows(ResultSet rs, String what) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        check(md.getColumnCount() == COLUMNS.length, what + ": column count " + md.getColumnCount());
        for (int c = 1; c <= COLUMNS.length; c++) {
            check(md.getColumnName(c).equals(COLUMNS[c - 1]), what + ": column " + c + " name " + md.getColumnName(c));
            check(md.getColumnType(c) == SQL_TYPES[c - 1],
                what + ": column " + COLUMNS[c - 1] + " java.sql.Types " + md.getColumnType(c) + ", want " + SQL_TYPES[c - 1]);
        }
        int k = 0;
        while (rs.next()) {
            check(k < ROWS.length, what + ": more than " + ROWS.length + " rows");
            for (int c = 1; c <= COLUMNS.length; c++) {
                Object got = read(rs, c);
                Object want = ROWS[k][c - 1];
                check(same(got, want), what + ": row " + (k + 1) + " column " + COLUMNS[c - 1] + ": got " + show(got)
                    + ", want " + show(want));
            }
            k++;
        }
        check(k == ROWS.length, what + ": " + k + " rows, want " + ROWS.length);
    }

    static void expectError(Connection conn, String sql, int param, String code) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setInt(1, param);
            ps.execute();
        } catch (SQLException e) {
            check(code.equals(e.getSQLState()), sql + ": SQLSTATE " + e.getSQLState() + " (" + e.getMessage() + "), want " + code);
            System.out.println("ok: " + sql + " -> " + code);
            return;
        }
        check(false, sql + ": no error, want SQLSTATE " + code);
    }

    static long countRows(Connection conn, String table) throws SQLException {
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
            check(rs.next(), "count(*) returned no row");
            return rs.getLong(1);
        }
    }

    public static void main(String[] args) throws Exception {
        String host = args[0], port = args[1], table = args[2];
        Properties props = new Properties();
        props.setProperty("user", "zproxy");
        props.setProperty("sslmode", "disable");
        props.setProperty("ApplicationName", "zproxy-e2e-jdbc");
        props.setProperty("connectTimeout", "10");
        props.setProperty("socketTimeout", "60");
        for (int k = 3; k < args.length; k++) {
            int eq = args[k].indexOf('=');
            props.setProperty(args[k].substring(0, eq), args[k].substring(eq + 1));
        }
        String url = "jdbc:postgresql://" + host + ":" + port + "/zproxy";
        try (Connection conn = DriverManager.getConnection(url, props)) {
            check(conn.getAutoCommit(), "autocommit is off");
            try (Statement st = conn.createStatement()) {
                st.execute("CREATE TABLE " + table + " (id integer NOT NULL, sm smallint, i integer, bi bigint,"
                    + " r real, d double precision, tx text, vc varchar(20), b boolean, ts timestamp,"
                    + " tz timestamptz, dt date, by bytea, u uuid, PRIMARY KEY (id)) WITH (shards = 2)");
            }
            System.out.println("ok: create table");

            String one = "(" + String.join(", ", java.util.Collections.nCopies(COLUMNS.length, "?")) + ")";
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO " + table + " VALUES " + one)) {
                bind(ps, 1, ROWS[0]);
                check(ps.executeUpdate() == 1, "insert of one row: update count");
            }
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO " + table + " VALUES " + one + ", " + one)) {
                bind(ps, 1, ROWS[1]);
                bind(ps, 1 + COLUMNS.length, ROWS[2]);
                check(ps.executeUpdate() == 2, "insert of two rows: update count");
            }
            System.out.println("ok: inserts with parameters of every type");

            String select = "SELECT " + String.join(", ", COLUMNS) + " FROM " + table;
            try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(select + " ORDER BY id")) {
                checkRows(rs, "plain statement");
            }
            System.out.println("ok: read back 3 rows with a plain statement, values and types exact");

            // Ten executions: from the fifth on, a named server-side statement
            // with binary results.
            try (PreparedStatement ps = conn.prepareStatement(select + " WHERE id >= ? ORDER BY id")) {
                for (int run = 1; run <= 10; run++) {
                    ps.setInt(1, 1);
                    try (ResultSet rs = ps.executeQuery()) {
                        checkRows(rs, "prepared statement, run " + run);
                    }
                }
            }
            System.out.println("ok: prepared select run 10 times, values and types exact");

            // A point select with parameters of several types, ten times.
            try (PreparedStatement ps = conn.prepareStatement(
                    "SELECT id, tx FROM " + table + " WHERE id = ? AND bi = ? AND b = ? AND d = ? AND vc = ?")) {
                for (int run = 1; run <= 10; run++) {
                    ps.setInt(1, 1);
                    ps.setLong(2, Long.MIN_VALUE);
                    ps.setBoolean(3, true);
                    ps.setDouble(4, 3.141592653589793);
                    ps.setString(5, "varchar");
                    try (ResultSet rs = ps.executeQuery()) {
                        check(rs.next(), "point select run " + run + ": no row");
                        check(rs.getInt(1) == 1 && rs.getString(2).equals("héllo, wörld ☃"),
                            "point select run " + run + ": got " + rs.getInt(1) + ", " + rs.getString(2));
                        check(!rs.next(), "point select run " + run + ": more than one row");
                    }
                }
            }
            System.out.println("ok: point select with typed parameters run 10 times");

            // An update run ten times through one PreparedStatement.
            try (PreparedStatement ps = conn.prepareStatement("UPDATE " + table + " SET i = ? WHERE id = ?")) {
                for (int run = 1; run <= 10; run++) {
                    ps.setInt(1, run);
                    ps.setInt(2, 2);
                    check(ps.executeUpdate() == 1, "update run " + run + ": update count");
                }
            }
            try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT i FROM " + table + " WHERE id = 2")) {
                check(rs.next() && rs.getInt(1) == 10, "after ten updates i is not 10");
            }
            try (Statement st = conn.createStatement()) {
                check(st.executeUpdate("UPDATE " + table + " SET i = NULL WHERE id = 2") == 1, "resetting i");
            }
            System.out.println("ok: prepared update run 10 times");

            // A transaction: pgjdbc sends BEGIN with the first statement.
            conn.setAutoCommit(false);
            try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
                check(rs.next() && rs.getLong(1) == 3, "count in a transaction");
            }
            conn.commit();
            conn.setAutoCommit(true);
            System.out.println("ok: commit of a read-only transaction");

            // A batch: several Bind/Execute pairs before one Sync.
            try (Statement st = conn.createStatement()) {
                st.execute("CREATE TABLE " + table + "_batch (id integer NOT NULL, v text, PRIMARY KEY (id))");
            }
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO " + table + "_batch VALUES (?, ?)")) {
                for (int k = 1; k <= 7; k++) {
                    ps.setInt(1, k);
                    ps.setString(2, "v" + k);
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                check(counts.length == 7, "batch: " + counts.length + " update counts");
                for (int n : counts) {
                    check(n == 1 || n == Statement.SUCCESS_NO_INFO, "batch update counts " + Arrays.toString(counts));
                }
            }
            // A fetch size inside a transaction: Execute with a row limit,
            // PortalSuspended, Execute again.
            conn.setAutoCommit(false);
            try (PreparedStatement ps = conn.prepareStatement("SELECT id, v FROM " + table + "_batch WHERE id >= ? ORDER BY id")) {
                ps.setFetchSize(2);
                for (int run = 1; run <= 6; run++) {
                    ps.setInt(1, 2);
                    try (ResultSet rs = ps.executeQuery()) {
                        int want = 2;
                        while (rs.next()) {
                            check(rs.getInt(1) == want && rs.getString(2).equals("v" + want),
                                "fetch size 2, run " + run + ": row " + rs.getInt(1) + " " + rs.getString(2) + ", want " + want);
                            want++;
                        }
                        check(want == 8, "fetch size 2, run " + run + ": rows up to " + (want - 1) + ", want 7");
                    }
                }
            }
            conn.commit();
            conn.setAutoCommit(true);
            System.out.println("ok: batch insert of 7 rows, read back with fetch size 2");

            expectError(conn, "INSERT INTO " + table + " (id) VALUES (?)", 1, "23505");
            check(countRows(conn, table) == 3, "count after the duplicate key error");
            expectError(conn, "SELECT * FROM no_such_table WHERE id = ?", 1, "42P01");
            check(countRows(conn, table) == 3, "count after the unknown table error");
            System.out.println("ok: connection usable after errors");
        }
        System.out.println("PASS");
    }
}
