package parser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// describeRole renders a RoleStatement compactly for comparisons.
func describeRole(rs *RoleStatement) string {
	var parts []string
	parts = append(parts, rs.Kind)
	for _, n := range rs.Roles {
		switch {
		case n.Current:
			parts = append(parts, "role=CURRENT")
		case n.Public:
			parts = append(parts, "role=PUBLIC")
		default:
			parts = append(parts, "role="+n.Name)
		}
	}
	if rs.IfExists {
		parts = append(parts, "if_exists")
	}
	for _, n := range rs.Granted {
		parts = append(parts, "granted="+n.Name)
	}
	if rs.Admin {
		parts = append(parts, "admin")
	}
	if rs.Unsupported != "" {
		parts = append(parts, "unsupported="+rs.Unsupported)
	}
	if rs.Setting != "" {
		parts = append(parts, "setting="+rs.Setting)
	}
	for _, o := range rs.Options {
		s := o.Name
		if o.Negated {
			s = "no" + s
		}
		if o.Name == "password" {
			if o.Password == nil {
				s += "=NULL"
			} else {
				s += "=" + *o.Password
			}
		}
		parts = append(parts, s)
	}
	if len(rs.Privileges) > 0 {
		parts = append(parts, "privs="+strings.Join(rs.Privileges, "+"))
	}
	for _, t := range rs.Tables {
		parts = append(parts, "table="+t)
	}
	for _, s := range rs.Schemas {
		parts = append(parts, "schema="+s)
	}
	return strings.Join(parts, " ")
}

func TestRoleStatements(t *testing.T) {
	for _, tc := range []struct{ sql, want string }{
		{"CREATE ROLE app", "create_role role=app"},
		{"create user app password 'pw'", "create_role role=app login password=pw"},
		{`CREATE ROLE "App" WITH LOGIN SUPERUSER ENCRYPTED PASSWORD 'it''s'`, "create_role role=App login superuser password=it's"},
		{"CREATE ROLE r NOLOGIN NOSUPERUSER INHERIT NOCREATEDB", "create_role role=r nologin nosuperuser"},
		{"ALTER ROLE app WITH PASSWORD NULL", "alter_role role=app password=NULL"},
		{"ALTER USER current_user PASSWORD 'SCRAM-SHA-256$4096:x'", "alter_role role=CURRENT password=SCRAM-SHA-256$4096:x"},
		{"ALTER ROLE app NOLOGIN", "alter_role role=app nologin"},
		{"DROP ROLE a", "drop_role role=a"},
		{"DROP USER IF EXISTS a, b", "drop_role role=a role=b if_exists"},
		{"GRANT SELECT ON t TO app", "grant role=app privs=SELECT table=t"},
		{"GRANT select, insert, UPDATE, delete ON TABLE public.t, u TO app, GROUP other", "grant role=app role=other privs=SELECT+INSERT+UPDATE+DELETE table=t table=u"},
		{"GRANT ALL PRIVILEGES ON ALL TABLES IN SCHEMA public TO PUBLIC", "grant role=PUBLIC privs=ALL schema=public"},
		{`GRANT ALL ON "T" TO "public"`, "grant role=public privs=ALL table=T"},
		{"REVOKE ALL ON t FROM app CASCADE", "revoke role=app privs=ALL table=t"},
		{"REVOKE INSERT ON other.t FROM session_user", "revoke role=CURRENT privs=INSERT table=other.t"},
		// Options zproxy lacks are refused by the session, after its
		// privilege checks (PostgreSQL answers 42501 first).
		{"CREATE ROLE r CREATEDB", "create_role role=r unsupported=CREATEDB"},
		{"CREATE ROLE r LOGIN VALID UNTIL 'infinity'", "create_role role=r unsupported=VALID login"},
		{"GRANT admins, ops TO r, CURRENT_USER WITH ADMIN OPTION", "grant_role role=r role=CURRENT granted=admins granted=ops admin"},
		{"REVOKE ADMIN OPTION FOR admins FROM r CASCADE", "revoke_role role=r granted=admins admin"},
		{"REVOKE pg_monitor FROM GROUP r", "revoke_role role=r granted=pg_monitor"},
		{"ALTER SYSTEM SET work_mem = '1MB'", "alter_system setting=work_mem"},
		{"ALTER SYSTEM RESET zproxy.work_mem", "alter_system setting=zproxy.work_mem"},
	} {
		st := parseOneOK(t, tc.sql)
		if st.Role == nil || st.AST != nil {
			t.Errorf("%s: Role=%v AST=%v", tc.sql, st.Role, st.AST)
			continue
		}
		if got := describeRole(st.Role); got != tc.want {
			t.Errorf("%s:\n got  %s\n want %s", tc.sql, got, tc.want)
		}
	}
}

func TestRoleStatementErrors(t *testing.T) {
	for _, tc := range []struct{ sql, code, msg string }{
		{"CREATE ROLE", pgerr.SyntaxError.String(), "syntax error at end of input"},
		{"CREATE ROLE r LOGIN LOGIN", pgerr.SyntaxError.String(), "conflicting or redundant options"},
		{"CREATE ROLE r LOGIN NOLOGIN", pgerr.SyntaxError.String(), "conflicting or redundant options"},
		{"CREATE ROLE r PASSWORD 42", pgerr.SyntaxError.String(), `syntax error at or near "42"`},
		{"CREATE ROLE current_user", pgerr.ReservedName.String(), `role name "current_user" is reserved`},
		{"ALTER ROLE r RENAME TO s", pgerr.FeatureNotSupported.String(), "ALTER ROLE ... RENAME is not supported"},
		{"ALTER ROLE r SET work_mem", pgerr.SyntaxError.String(), "syntax error at end of input"},
		{"ALTER ROLE r IN DATABASE SET work_mem = 1", pgerr.SyntaxError.String(), `syntax error at or near "work_mem"`},
		{"ALTER ROLE r IN d SET work_mem = 1", pgerr.SyntaxError.String(), `syntax error at or near "d"`},
		{"ALTER ROLE r SET work_mem = 1 LOGIN", pgerr.SyntaxError.String(), `syntax error at or near "LOGIN"`},
		{"ALTER ROLE r RESET", pgerr.SyntaxError.String(), "syntax error at end of input"},
		{"ALTER ROLE ALL LOGIN", pgerr.SyntaxError.String(), `syntax error at or near "LOGIN"`},
		{"DROP ROLE a b", pgerr.SyntaxError.String(), `syntax error at or near "b"`},
		{"ALTER DEFAULT PRIVILEGES GRANT SELECT ON VIEWS TO r", pgerr.SyntaxError.String(), `syntax error at or near "VIEWS"`},
		{"ALTER DEFAULT PRIVILEGES FOR ROLE a SELECT ON TABLES TO r", pgerr.SyntaxError.String(), `syntax error at or near "SELECT"`},
		{"GRANT SELECT (a ON t TO r", pgerr.SyntaxError.String(), `syntax error at or near "ON"`},
		{"GRANT EXECUTE ON TABLE t TO r", pgerr.InvalidGrantOperation.String(), "invalid privilege type EXECUTE for relation"},
		{"GRANT ALL ON TABLESPACE d TO r", pgerr.FeatureNotSupported.String(), "privileges on tablespace are not supported: zproxy grants on tables, views, sequences, schemas, databases, types, languages, parameters and large objects"},
		{"GRANT SELECT ON t TO r WITH GRANT OPTION", pgerr.FeatureNotSupported.String(), "WITH GRANT OPTION is not supported"},
		{"REVOKE GRANT OPTION FOR SELECT ON t FROM r", pgerr.FeatureNotSupported.String(), "GRANT OPTION is not supported"},
		{"GRANT SELECT ON t FROM r", pgerr.SyntaxError.String(), `syntax error at or near "FROM"`},
		{"GRANT SELECT t TO r", pgerr.SyntaxError.String(), `syntax error at or near "t"`},
		{"GRANT admins TO r WITH GRANT OPTION", pgerr.SyntaxError.String(), `syntax error at or near "GRANT"`},
		{"ALTER SYSTEM work_mem", pgerr.SyntaxError.String(), `syntax error at or near "work_mem"`},
	} {
		_, err := Parse(tc.sql)
		pe := pgerr.As(err)
		if pe == nil || pe.Code.String() != tc.code || pe.Message != tc.msg {
			t.Errorf("%s: got %v, want %s %s", tc.sql, describeErr(err), tc.code, tc.msg)
		}
	}
}

func describeErr(err error) string {
	if pe := pgerr.As(err); pe != nil {
		return fmt.Sprintf("%s %s", pe.Code, pe.Message)
	}
	return fmt.Sprint(err)
}

// Statements that start like role statements but are not stay TiDB's.
func TestNotRoleStatements(t *testing.T) {
	for _, sql := range []string{"CREATE TABLE role (a int primary key)", "DROP TABLE users", "ALTER TABLE t ADD COLUMN c int"} {
		sts, _ := Parse(sql)
		if len(sts) == 1 && sts[0].Role != nil {
			t.Errorf("%s parsed as a role statement", sql)
		}
	}
}

// FuzzRoleStatements feeds role-statement-shaped text to Parse: it must
// not panic, and a statement parsed as a role statement has no TiDB AST.
func FuzzRoleStatements(f *testing.F) {
	for _, s := range []string{
		"CREATE ROLE app LOGIN PASSWORD 'pw'", "CREATE USER u WITH SUPERUSER", "ALTER ROLE current_user PASSWORD NULL",
		"DROP ROLE IF EXISTS a, b", "GRANT SELECT, INSERT ON TABLE public.t, u TO a, PUBLIC",
		"GRANT ALL PRIVILEGES ON ALL TABLES IN SCHEMA public TO app", "REVOKE ALL ON t FROM a CASCADE",
		"GRANT", "REVOKE SELECT ON", "CREATE ROLE r PASSWORD", "GRANT SELECT ON t TO", "ALTER USER", "DROP ROLE IF",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		sts, err := Parse(sql)
		if err != nil {
			if pgerr.As(err) == nil {
				t.Fatalf("Parse(%q) failed without a SQLSTATE: %v", sql, err)
			}
			return
		}
		for _, st := range sts {
			if st.Role != nil && st.AST != nil {
				t.Fatalf("Parse(%q): a role statement with an AST", sql)
			}
		}
	})
}

// Numeric literals too long for TiDB's decimal type (found by
// FuzzRoleStatements: TiDB's parser panicked) reach the planner as text.
func TestLongNumericLiterals(t *testing.T) {
	for _, tc := range []struct{ sql, want string }{
		{"SELECT " + strings.Repeat("1", 82), "select zp_num('" + strings.Repeat("1", 82) + "')"},
		{"SELECT 0." + strings.Repeat("1", 80), "select zp_num('0." + strings.Repeat("1", 80) + "')"},
		{"SELECT " + strings.Repeat("1", 60), "select " + strings.Repeat("1", 60)},
	} {
		st := parseOneOK(t, tc.sql)
		if got := restore(t, st.AST); got != tc.want {
			t.Errorf("%.20s...: %s, want %s", tc.sql, got, tc.want)
		}
	}
}
