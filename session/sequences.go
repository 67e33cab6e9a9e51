package session

import (
	"context"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// seqState is what a session remembers of sequences: the value nextval
// last returned for each (currval) and which sequence it called last
// (lastval). DISCARD SEQUENCES forgets it.
type seqState struct {
	currval map[uint64]int64
	last    uint64 // sequence ID; 0 before the first nextval
}

// discardSequences forgets currval and lastval (DISCARD SEQUENCES / ALL).
func (s *Session) discardSequences() { s.seqs = seqState{} }

// sessionSequences implements builtins.Sequences for one statement.
type sessionSequences struct {
	s   *Session
	ctx context.Context
}

var _ builtins.Sequences = (*sessionSequences)(nil)

// lookup finds a sequence by the text PostgreSQL would read as a regclass:
// an optionally schema-qualified name, folded to lower case unless
// double-quoted.
func (q *sessionSequences) lookup(text string) (*catalog.Sequence, error) {
	snap, err := q.s.snapshot(q.ctx)
	if err != nil {
		return nil, storeErr(err)
	}
	name, err := relationNameOf(text)
	if err != nil {
		return nil, err
	}
	if sc, _ := catalog.SplitName(name); !snap.HasSchema(sc) {
		return nil, pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", sc)
	}
	seq, ok := snap.Sequence(name)
	if !ok {
		// Any other relation, a system catalog's too (nextval('pg_class')),
		// is 42809 naming it unqualified, as PostgreSQL's init_sequence
		// reports it.
		_, bare := catalog.SplitName(name)
		if snap.HasRelation(name) {
			return nil, pgerr.New(pgerr.WrongObjectType, "%q is not a sequence", bare)
		}
		if _, err := pgcatalog.NewEnv(snap, nil).RegOID(sqltypes.TypeRegClass, text); err == nil {
			return nil, pgerr.New(pgerr.WrongObjectType, "%q is not a sequence", bare)
		}
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	return seq, nil
}

// relationNameOf parses a relation name as text ('s', 'public.s', '"S"').
func relationNameOf(text string) (string, error) {
	var parts []string
	rest := strings.TrimSpace(text)
	for {
		var part string
		if strings.HasPrefix(rest, `"`) {
			end := 1
			var b strings.Builder
			for ; end < len(rest); end++ {
				if rest[end] == '"' {
					if end+1 < len(rest) && rest[end+1] == '"' {
						b.WriteByte('"')
						end++
						continue
					}
					break
				}
				b.WriteByte(rest[end])
			}
			if end >= len(rest) {
				return "", pgerr.New(pgerr.InvalidName, "invalid name syntax")
			}
			part, rest = b.String(), rest[end+1:]
		} else {
			i := strings.IndexByte(rest, '.')
			if i < 0 {
				i = len(rest)
			}
			part, rest = strings.ToLower(strings.TrimSpace(rest[:i])), rest[i:]
			if part == "" {
				return "", pgerr.New(pgerr.InvalidName, "invalid name syntax")
			}
		}
		parts = append(parts, part)
		if rest == "" {
			break
		}
		if rest[0] != '.' {
			return "", pgerr.New(pgerr.InvalidName, "invalid name syntax")
		}
		rest = rest[1:]
	}
	switch {
	case len(parts) == 1:
		return parts[0], nil
	case len(parts) == 2:
		// "schema.name", public's too: the catalog's lookup binds exactly
		// that schema (public's s past a temporary s); lookup checks the
		// schema.
		return parts[0] + "." + parts[1], nil
	}
	return "", pgerr.New(pgerr.InvalidName, "improper relation name (too many dotted names): %s", text)
}

// require refuses (42501) unless the session's user holds one of any on
// seq, as PostgreSQL's sequence functions check: nextval USAGE or UPDATE,
// currval and lastval USAGE or SELECT, setval UPDATE. An identity
// column's sequence is the table's business: INSERT's privilege covers it.
func (q *sessionSequences) require(seq *catalog.Sequence, any catalog.Privilege) error {
	snap, err := q.s.snapshot(q.ctx)
	if err != nil {
		return storeErr(err)
	}
	if q.s.isSuperuser(snap) || identitySequence(snap, seq) {
		return nil
	}
	if snap.SequencePrivileges(q.s.currentUser(), seq)&any == 0 {
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for sequence %s", seq.Name)
	}
	return nil
}

// identitySequence reports whether seq generates an identity column's
// values (PostgreSQL draws those without checking the sequence's
// privileges; a SERIAL's default is an ordinary nextval call).
func identitySequence(snap *catalog.Snapshot, seq *catalog.Sequence) bool {
	table, column, ok := catalog.SplitOwnedBy(seq.OwnedBy)
	if !ok {
		return false
	}
	t, err := snap.Table(table)
	if err != nil {
		return false
	}
	i := t.ColumnIndex(column)
	return i >= 0 && t.Columns[i].Identity != ""
}

func (q *sessionSequences) Nextval(name string) (int64, error) {
	seq, err := q.lookup(name)
	if err != nil {
		return 0, err
	}
	if err := q.require(seq, catalog.PrivUsage|catalog.PrivUpdate); err != nil {
		return 0, err
	}
	if q.s.readOnly() {
		return 0, pgerr.New(pgerr.ReadOnlySQLTransaction, "cannot execute nextval() in a read-only transaction")
	}
	v, err := q.s.engine.exec.Nextval(q.ctx, seq)
	if err != nil {
		return 0, err
	}
	q.remember(seq.ID, v)
	q.s.seqs.last = seq.ID
	return v, nil
}

func (q *sessionSequences) remember(id uint64, v int64) {
	if q.s.seqs.currval == nil {
		q.s.seqs.currval = map[uint64]int64{}
	}
	q.s.seqs.currval[id] = v
}

func (q *sessionSequences) Currval(name string) (int64, error) {
	seq, err := q.lookup(name)
	if err != nil {
		return 0, err
	}
	if err := q.require(seq, catalog.PrivUsage|catalog.PrivSelect); err != nil {
		return 0, err
	}
	v, ok := q.s.seqs.currval[seq.ID]
	if !ok {
		return 0, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "currval of sequence %q is not yet defined in this session", seq.Name)
	}
	return v, nil
}

func (q *sessionSequences) Setval(name string, value int64, isCalled bool) (int64, error) {
	seq, err := q.lookup(name)
	if err != nil {
		return 0, err
	}
	if err := q.require(seq, catalog.PrivUpdate); err != nil {
		return 0, err
	}
	if q.s.readOnly() {
		return 0, pgerr.New(pgerr.ReadOnlySQLTransaction, "cannot execute setval() in a read-only transaction")
	}
	if err := q.s.engine.exec.Setval(q.ctx, seq, value, isCalled); err != nil {
		return 0, err
	}
	if isCalled {
		q.remember(seq.ID, value)
	}
	return value, nil
}

func (q *sessionSequences) State(name string) (int64, bool, error) {
	seq, err := q.lookup(name)
	if err != nil {
		return 0, false, err
	}
	if err := q.require(seq, catalog.PrivSelect); err != nil {
		return 0, false, err
	}
	return q.s.engine.exec.SequenceState(q.ctx, seq)
}

func (q *sessionSequences) Lastval() (int64, error) {
	if q.s.seqs.last == 0 {
		return 0, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "lastval is not yet defined in this session")
	}
	snap, err := q.s.snapshot(q.ctx)
	if err != nil {
		return 0, storeErr(err)
	}
	for _, seq := range snap.Sequences() {
		if seq.ID == q.s.seqs.last {
			if err := q.require(seq, catalog.PrivUsage|catalog.PrivSelect); err != nil {
				return 0, err
			}
		}
	}
	return q.s.seqs.currval[q.s.seqs.last], nil
}
