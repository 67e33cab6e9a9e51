package parser

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// databaseStmt refuses CREATE, DROP and ALTER DATABASE in any of
// PostgreSQL's spellings (options, WITH (FORCE), IF EXISTS): a zproxy store
// holds one database, which every database name a client connects with
// opens, so there is no second database to create, drop or rename. The
// refusal is PostgreSQL's SQLSTATE for a feature it lacks (0A000), never
// a syntax error on the options or a silent success.
func (r *rewriter) databaseStmt() error {
	if !r.peek(1, "database") || !r.peek(0, "create") && !r.peek(0, "drop") && !r.peek(0, "alter") {
		return nil
	}
	verb := strings.ToUpper(r.toks[0].val)
	return pgerr.New(pgerr.FeatureNotSupported, "%s DATABASE is not supported", verb).
		WithDetail("A zproxy store holds one database; every database name a client connects with opens it.").
		WithHint("Use schemas (CREATE SCHEMA) to keep applications apart, or run one zproxy per store.").
		WithPosition(r.pos(0))
}
