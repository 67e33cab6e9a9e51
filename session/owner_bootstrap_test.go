package session_test

import (
	"strings"
	"testing"
)

// TestOwnerToBootstrapSuperuser: the bootstrap superuser (zproxy), which
// no role item stores, is a role every OWNER TO and GRANT may name, as
// pg_dump's ALTER ... OWNER TO zproxy for each object of a zproxy dump
// needs.
func TestOwnerToBootstrapSuperuser(t *testing.T) {
	_, s := adminEngine(t, true)
	for _, sql := range []string{
		`CREATE ROLE obs_other`,
		`CREATE TYPE obs_e AS ENUM ('a')`,
		`ALTER TYPE obs_e OWNER TO obs_other`,
		`ALTER TYPE obs_e OWNER TO zproxy`,
		`CREATE DOMAIN obs_d AS int`,
		`ALTER DOMAIN obs_d OWNER TO zproxy`,
		`CREATE FUNCTION obs_f(a text, b text) RETURNS bool LANGUAGE sql IMMUTABLE AS 'select lower(a) = lower(b)'`,
		`ALTER FUNCTION obs_f(text, text) OWNER TO obs_other`,
		`ALTER FUNCTION obs_f(text, text) OWNER TO zproxy`,
		`GRANT EXECUTE ON FUNCTION obs_f(text, text) TO zproxy`,
		`CREATE OPERATOR === (FUNCTION = obs_f, LEFTARG = text, RIGHTARG = text)`,
		`ALTER OPERATOR === (text, text) OWNER TO zproxy`,
	} {
		mustRun(t, s, sql)
	}
	got := rowsOf(t, s, `SELECT t.typname || ':' || pg_get_userbyid(t.typowner) FROM pg_type t WHERE t.typname IN ('obs_e', 'obs_d') ORDER BY 1`)
	if strings.Join(got, " ") != "obs_d:zproxy obs_e:zproxy" {
		t.Errorf("type owners: %v", got)
	}
	got = rowsOf(t, s, `SELECT pg_get_userbyid(proowner) FROM pg_proc WHERE proname = 'obs_f'`)
	if strings.Join(got, " ") != "zproxy" {
		t.Errorf("function owner: %v", got)
	}
}
