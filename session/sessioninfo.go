package session

import "github.com/zproxy/zproxy/catalog/pgcatalog"

var (
	_ pgcatalog.QueryReporter = pgSession{}
	_ pgcatalog.ChannelLister = pgSession{}
)

// CurrentQuery implements pgcatalog.QueryReporter: the statement the
// client runs, as pg_stat_activity shows it.
func (p pgSession) CurrentQuery() (string, bool) {
	a := p.s.activity
	if a == nil {
		return "", false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.query, a.query != ""
}

// ListeningChannels implements pgcatalog.ChannelLister: the channels the
// session listens on now (a LISTEN of the open block counts once it
// commits, as in PostgreSQL).
func (p pgSession) ListeningChannels() []string {
	out := make([]string, 0, len(p.s.ext.listening))
	for ch := range p.s.ext.listening {
		out = append(out, ch)
	}
	return out
}
