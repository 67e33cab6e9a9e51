import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;

/** Connects over TLS with SCRAM and checks that a query runs: TlsClient url user password. */
public class TlsClient {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.setProperty("user", args[1]);
        props.setProperty("password", args[2]);
        try (Connection c = DriverManager.getConnection(args[0], props);
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT 41 + 1")) {
            rs.next();
            if (rs.getInt(1) != 42) {
                throw new AssertionError("got " + rs.getInt(1));
            }
        }
        System.out.println("PASS");
    }
}
