package pgcatalog

import (
	"sort"

	. "github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// QueryReporter is a Session that knows the text of the statement its
// client is running (current_query), false when it runs none (a session
// without a client).
type QueryReporter interface {
	CurrentQuery() (string, bool)
}

// ChannelLister is a Session that listens for notifications
// (pg_listening_channels).
type ChannelLister interface {
	ListeningChannels() []string
}

// registerSessionInfo registers the functions reporting on the session
// itself through the optional interfaces above: without them (no session)
// current_query is NULL and pg_listening_channels empty, as in a
// PostgreSQL backend that runs no client query and listens on nothing.
func registerSessionInfo() {
	Register("current_query", Overload{Result: Returns(sqltypes.TypeText), Volatility: Volatile, CalledOnNull: true,
		Eval: func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
			if e := envOf(ctx); e != nil {
				if r, ok := e.Sess.(QueryReporter); ok {
					if q, ok := r.CurrentQuery(); ok {
						return textV(q), nil
					}
				}
			}
			return sqltypes.Null, nil
		}})
	Register("pg_listening_channels", Overload{Result: Returns(sqltypes.TypeText), Volatility: Stable,
		Set: &SetFunc{Rows: func(ctx *Context, _ []sqltypes.Value) (SetRows, error) {
			var names []string
			if e := envOf(ctx); e != nil {
				if l, ok := e.Sess.(ChannelLister); ok {
					names = l.ListeningChannels()
				}
			}
			// PostgreSQL lists them in the order they were listened on;
			// zproxy keeps a set, and lists it sorted.
			sort.Strings(names)
			rows := make([][]sqltypes.Value, len(names))
			for i, n := range names {
				rows[i] = []sqltypes.Value{textV(n)}
			}
			return Table(rows), nil
		}}})
}
