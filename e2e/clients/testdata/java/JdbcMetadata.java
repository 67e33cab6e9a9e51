import java.sql.*;
import java.util.*;

/**
 * JdbcMetadata drives pgJDBC's DatabaseMetaData and ResultSetMetaData, as
 * DBeaver, DataGrip and Metabase's sync use them, over a schema the Go test
 * created: a table with a primary key, a btree index and a view. It prints
 * what each call returned, one line per row, and PASS at the end; any
 * exception fails it. The Go test compares the lines with PostgreSQL's.
 *
 * Usage: JdbcMetadata host port database user table
 */
public class JdbcMetadata {
    static void dump(String what, ResultSet rs, String... cols) throws SQLException {
        int n = 0;
        while (rs.next()) {
            StringBuilder sb = new StringBuilder(what).append(":");
            for (String c : cols) {
                sb.append(" ").append(c).append("=").append(rs.getString(c));
            }
            System.out.println(sb);
            n++;
        }
        rs.close();
        System.out.println(what + " rows=" + n);
    }

    public static void main(String[] args) throws Exception {
        String url = "jdbc:postgresql://" + args[0] + ":" + args[1] + "/" + args[2];
        String table = args[4];
        Properties props = new Properties();
        props.setProperty("user", args[3]);
        try (Connection c = DriverManager.getConnection(url, props)) {
            DatabaseMetaData md = c.getMetaData();
            System.out.println("product=" + md.getDatabaseProductName());
            dump("schemas", md.getSchemas(null, "public"), "TABLE_SCHEM");
            dump("tables", md.getTables(null, "public", table + "%", new String[] {"TABLE", "VIEW"}),
                "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE");
            dump("columns", md.getColumns(null, "public", table, "%"),
                "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE", "DECIMAL_DIGITS", "NULLABLE", "ORDINAL_POSITION", "IS_NULLABLE", "IS_AUTOINCREMENT");
            try {
                dump("primarykeys", md.getPrimaryKeys(null, "public", table), "COLUMN_NAME", "KEY_SEQ", "PK_NAME");
            } catch (SQLException e) { System.out.println("primarykeys FAILED " + e.getMessage()); }
            try {
            dump("indexinfo", md.getIndexInfo(null, "public", table, false, true),
                "INDEX_NAME", "NON_UNIQUE", "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC");
            } catch (SQLException e) { System.out.println("indexinfo FAILED " + e.getMessage()); }
            try {
            dump("importedkeys", md.getImportedKeys(null, "public", table), "FKCOLUMN_NAME", "PKTABLE_NAME");
            } catch (SQLException e) { System.out.println("importedkeys FAILED " + e.getMessage()); }
            try {
            ResultSet ti = md.getTypeInfo();
            Set<String> want = new TreeSet<>(Arrays.asList("int4", "int8", "text", "varchar", "bool", "timestamp", "timestamptz", "float8", "numeric", "bytea", "uuid", "date"));
            Set<String> seen = new TreeSet<>();
            while (ti.next()) {
                String name = ti.getString("TYPE_NAME");
                if (want.contains(name)) {
                    seen.add(name + "/" + ti.getInt("DATA_TYPE"));
                }
            }
            System.out.println("typeinfo: " + seen);
            } catch (SQLException e) { System.out.println("typeinfo FAILED " + e.getMessage()); }
            try {
            ResultSet fns = md.getFunctions(null, "pg_catalog", "pg_get_indexdef");
            int nf = 0;
            while (fns.next()) {
                nf++;
            }
            System.out.println("functions pg_get_indexdef: " + (nf > 0 ? "found" : "none"));
            } catch (SQLException e) { System.out.println("functions FAILED " + e.getMessage()); }

            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT * FROM " + table)) {
                ResultSetMetaData rm = rs.getMetaData();
                for (int i = 1; i <= rm.getColumnCount(); i++) {
                    System.out.println("rsmd: " + rm.getColumnName(i) + " " + rm.getColumnTypeName(i) + " " + rm.getColumnType(i)
                        + " table=" + rm.getTableName(i) + " nullable=" + rm.isNullable(i) + " autoinc=" + rm.isAutoIncrement(i)
                        + " precision=" + rm.getPrecision(i));
                }
            }
        }
        System.out.println("PASS");
    }
}
