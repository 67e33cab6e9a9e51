package session_test

import (
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestCommentOnExtension: a built-in extension keeps its control file's
// comment, which pg_dump writes back (COMMENT ON EXTENSION hstore IS
// '...'): that text is accepted, another is 0A000 rather than ignored.
func TestCommentOnExtension(t *testing.T) {
	_, s := adminEngine(t, true)
	mustRun(t, s, `COMMENT ON EXTENSION hstore IS 'data type for storing sets of (key, value) pairs'`)
	expectSQL(t, s, `COMMENT ON EXTENSION hstore IS 'mine'`, pgerr.FeatureNotSupported, `changing the comment of extension "hstore" is not supported`)
	expectSQL(t, s, `COMMENT ON EXTENSION nosuch IS 'x'`, pgerr.UndefinedObject, `extension "nosuch" does not exist`)
	if got := rowsOf(t, s, `SELECT obj_description(oid, 'pg_extension') FROM pg_extension WHERE extname = 'hstore'`); got[0] != "data type for storing sets of (key, value) pairs" {
		t.Errorf("hstore's comment: %v", got)
	}
}
