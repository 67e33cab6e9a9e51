// pgjdbc's CopyManager and setFetchSize against zproxy (or, with
// E2E_POSTGRES, PostgreSQL).
//
// Usage: java -cp DIR:/usr/share/java/postgresql.jar JdbcStreams HOST PORT USER DBNAME
//
// CopyManager.copyIn and copyOut send COPY FROM STDIN and TO STDOUT;
// with autocommit off, setFetchSize(n) makes pgjdbc bind a named portal and
// Execute it n rows at a time (PortalSuspended between batches), so a large
// result streams. Prints one line per check and "PASS" at the end; exits
// non-zero at the first mismatch.

import java.io.StringReader;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

public class JdbcStreams {
    static void check(String what, Object got, Object want) {
        if (!java.util.Objects.equals(got, want)) {
            System.out.println("FAIL: " + what + ": got " + got + ", want " + want);
            System.exit(1);
        }
        System.out.println("ok  " + what);
    }

    public static void main(String[] args) throws Exception {
        String url = "jdbc:postgresql://" + args[0] + ":" + args[1] + "/" + args[3];
        Properties props = new Properties();
        props.setProperty("user", args[2]);
        props.setProperty("connectTimeout", "10");
        try (Connection conn = DriverManager.getConnection(url, props)) {
            try (Statement st = conn.createStatement()) {
                st.execute("DROP TABLE IF EXISTS jdbc_stream");
                st.execute("CREATE TABLE jdbc_stream (id int PRIMARY KEY, label text, score float8)");
            }
            CopyManager cm = ((PGConnection) conn).getCopyAPI();

            // copyIn: text rows from a Reader.
            StringBuilder data = new StringBuilder();
            for (int i = 1; i <= 2000; i++) {
                data.append(i).append('\t').append(i == 3 ? "back\\\\slash" : "label " + i).append('\t')
                    .append(i % 10 == 0 ? "\\N" : String.valueOf(i / 4.0)).append('\n');
            }
            long n = cm.copyIn("COPY jdbc_stream FROM STDIN", new StringReader(data.toString()));
            check("copyIn rows", n, 2000L);
            try (Statement st = conn.createStatement();
                 ResultSet rs = st.executeQuery("SELECT label, score FROM jdbc_stream WHERE id = 3")) {
                rs.next();
                check("copyIn escapes", rs.getString(1), "back\\slash");
                check("copyIn score", rs.getDouble(2), 0.75);
            }
            // A bad value: the COPY fails, nothing of it is kept.
            try {
                cm.copyIn("COPY jdbc_stream (id, label) FROM STDIN (FORMAT csv)", new StringReader("5000,ok\nnot a number,x\n"));
                check("copyIn of a bad value fails", "no error", "an error");
            } catch (SQLException e) {
                check("copyIn of a bad value: SQLSTATE", e.getSQLState(), "22P02");
            }
            try (Statement st = conn.createStatement();
                 ResultSet rs = st.executeQuery("SELECT count(*) FROM jdbc_stream WHERE id >= 5000")) {
                rs.next();
                check("nothing of the failed copyIn", rs.getInt(1), 0);
            }

            // copyOut: CSV to a Writer.
            StringWriter out = new StringWriter();
            n = cm.copyOut("COPY (SELECT id, label, score FROM jdbc_stream WHERE id IN (3, 10) ORDER BY id) TO STDOUT (FORMAT csv, HEADER)", out);
            check("copyOut rows", n, 2L);
            check("copyOut CSV", out.toString(), "id,label,score\n3,back\\slash,0.75\n10,label 10,\n");

            // setFetchSize: the result comes in batches of a portal.
            conn.setAutoCommit(false);
            try (PreparedStatement ps = conn.prepareStatement("SELECT id, label FROM jdbc_stream WHERE id > ? ORDER BY id")) {
                ps.setFetchSize(50);
                ps.setInt(1, 100);
                try (ResultSet rs = ps.executeQuery()) {
                    int count = 0;
                    long sum = 0;
                    while (rs.next()) {
                        count++;
                        sum += rs.getInt(1);
                    }
                    check("setFetchSize(50): rows", count, 1900);
                    check("setFetchSize(50): sum", sum, 1900L * (101 + 2000) / 2);
                }
                // A result closed before its end, then the statement again.
                ps.setInt(1, 1990);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    check("first row of a partly read result", rs.getInt(1), 1991);
                }
                ps.setInt(1, 1998);
                try (ResultSet rs = ps.executeQuery()) {
                    int count = 0;
                    while (rs.next()) {
                        count++;
                    }
                    check("the statement again", count, 2);
                }
            }
            conn.commit();
            conn.setAutoCommit(true);
        }
        System.out.println("PASS");
    }
}
