import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * Statement.cancel() through a load balancer: pgJDBC sends the
 * CancelRequest on a new connection to the same address, which the
 * balancer in front of the proxies gives to another proxy than the
 * session's. The statement must end with 57014 within seconds.
 *
 * Usage: JdbcCancel host port
 */
public class JdbcCancel {
    public static void main(String[] args) throws Exception {
        String url = "jdbc:postgresql://" + args[0] + ":" + args[1] + "/zproxy";
        Properties props = new Properties();
        props.setProperty("user", "zproxy");
        try (Connection conn = DriverManager.getConnection(url, props)) {
            Statement st = conn.createStatement();
            Thread canceler = new Thread(() -> {
                try {
                    Thread.sleep(1500);
                    // The balancer's next connection goes to the other proxy.
                    st.cancel();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            canceler.start();
            long start = System.nanoTime();
            try {
                st.executeQuery("SELECT pg_sleep(60)");
                throw new AssertionError("pg_sleep(60) was not canceled");
            } catch (SQLException e) {
                long ms = (System.nanoTime() - start) / 1_000_000;
                if (!"57014".equals(e.getSQLState())) {
                    throw new AssertionError("canceled with SQLSTATE " + e.getSQLState() + ": " + e.getMessage());
                }
                if (ms > 15_000) {
                    throw new AssertionError("the cancel took " + ms + " ms");
                }
                System.out.println("canceled after " + ms + " ms: " + e.getMessage());
            }
            canceler.join();
            // The session goes on.
            try (var rs = conn.createStatement().executeQuery("SELECT 1")) {
                rs.next();
                if (rs.getInt(1) != 1) {
                    throw new AssertionError("SELECT 1 after the cancel");
                }
            }
        }
        System.out.println("PASS");
    }
}
