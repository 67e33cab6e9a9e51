package executor

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"strings"
	"sync"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
)

// Sequences.
//
// A sequence's state is one store item (catalog.SequenceKey) holding the
// last value handed out and a version. A proxy does not write it for every
// nextval: it claims a block of values with one conditional write (the
// version it read must still be there, so two proxies never claim the same
// block) and serves nextval from the block in memory. On DynamoDB this
// keeps a busy sequence from being one hot item written per insert.
//
// As with PostgreSQL's CACHE, values are unique but not gap-free: a block
// not used up when the proxy stops is lost, and two proxies interleave
// their blocks. Sequences are not transactional (nextval is never rolled
// back), as in PostgreSQL.

// Block sizes: the sequence's CACHE, but at least this many values, so the
// state item is written once per block. A shared store (several proxies)
// gets larger blocks: its writes are remote and the item is shared.
const (
	sequenceBlockExclusive = 32
	sequenceBlockShared    = 1000
)

// sequences is an Executor's cache of claimed blocks, by sequence ID.
type sequences struct {
	mu     sync.Mutex
	blocks map[uint64]*seqBlock
}

// seqBlock is a claimed run of values: next is the next counter value to
// hand out, left how many remain. def is the descriptor it was claimed
// under: a change of increment, bounds or kind discards the block.
// version is the state's version the claim wrote, and prior the state it
// replaced, so that an unused remainder can be given back (release).
type seqBlock struct {
	mu      sync.Mutex
	def     catalog.Sequence
	next    int64
	left    int64
	handed  int64
	version int64
	prior   seqState
}

func (s *sequences) block(seq *catalog.Sequence) *seqBlock {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.blocks == nil {
		s.blocks = map[uint64]*seqBlock{}
	}
	b := s.blocks[seq.ID]
	if b == nil {
		b = &seqBlock{}
		s.blocks[seq.ID] = b
	}
	return b
}

func (s *sequences) forget(id uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.blocks, id)
}

// sameGenerator reports whether two descriptors generate the same values.
func sameGenerator(a, b *catalog.Sequence) bool {
	return a.Increment == b.Increment && a.Min == b.Min && a.Max == b.Max && a.Cycle == b.Cycle && a.BitReversed == b.BitReversed
}

// Nextval returns the sequence's next value.
func (e *Executor) Nextval(ctx context.Context, seq *catalog.Sequence) (int64, error) {
	b := e.seqs.block(seq)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.left == 0 || !sameGenerator(&b.def, seq) {
		if err := e.claim(ctx, seq, b); err != nil {
			return 0, err
		}
	}
	v := b.next
	b.left--
	b.handed++
	if b.left > 0 {
		b.next += seq.Increment
	}
	if seq.BitReversed {
		return int64(bits.Reverse64(uint64(v)) >> 1), nil
	}
	return v, nil
}

// SequenceState is what SELECT last_value, is_called FROM seq shows, and
// pg_dump records: when this proxy holds the sequence's newest claim, the
// last value it handed out (the state before the claim if it handed out
// none); otherwise the stored state, the end of the block another proxy
// claimed last, which is at or past every value handed out so far.
func (e *Executor) SequenceState(ctx context.Context, seq *catalog.Sequence) (last int64, called bool, err error) {
	st, err := e.readSeq(ctx, seq)
	if err != nil {
		return 0, false, err
	}
	b := e.seqs.block(seq)
	b.mu.Lock()
	defer b.mu.Unlock()
	if st.exists && b.version == st.version && sameGenerator(&b.def, seq) {
		if b.handed == 0 {
			return b.prior.last, b.prior.called, nil
		}
		last = b.next
		if b.left > 0 {
			last -= b.def.Increment
		}
		return last, true, nil
	}
	return st.last, st.called, nil
}

// seqState is a sequence's stored state.
type seqState struct {
	last    int64
	called  bool
	version int64
	exists  bool
}

func (e *Executor) readSeq(ctx context.Context, seq *catalog.Sequence) (seqState, error) {
	items, err := e.Store.Get(ctx, kv.GetRequest{Keys: []kv.Key{catalog.SequenceKey(seq.ID)}, Consistent: true})
	if err != nil {
		return seqState{}, ClassifyError(err)
	}
	if !kv.Found(items[0]) {
		return seqState{last: seq.Start}, nil
	}
	st := seqState{exists: true}
	for _, a := range items[0].Attrs {
		switch a.Name {
		case catalog.SequenceLastAttr:
			st.last = a.I
		case catalog.SequenceCalledAttr:
			st.called = a.I != 0
		case catalog.VersionAttr:
			st.version = a.I
		}
	}
	return st, nil
}

// writeSeq replaces the state read as old (conditionally on its version).
func (e *Executor) writeSeq(ctx context.Context, seq *catalog.Sequence, old seqState, last int64, called bool) error {
	op := kv.Op{Kind: kv.OpPut, Key: catalog.SequenceKey(seq.ID), Attrs: []kv.Attr{
		{Name: catalog.SequenceLastAttr, Kind: kv.AttrInt, I: last},
		{Name: catalog.SequenceCalledAttr, Kind: kv.AttrBool, I: boolInt(called)},
		{Name: catalog.VersionAttr, Kind: kv.AttrInt, I: old.version + 1},
	}}
	if old.exists {
		op.Cond, op.CondAttr = kv.CondAttrEquals, kv.Attr{Name: catalog.VersionAttr, Kind: kv.AttrInt, I: old.version}
	} else {
		op.Cond = kv.CondNotExists
	}
	return e.Store.Write(ctx, kv.Batch{Ops: []kv.Op{op}, Atomic: true})
}

// claim takes the next block of values for b.
func (e *Executor) claim(ctx context.Context, seq *catalog.Sequence, b *seqBlock) error {
	want := max(seq.Cache, sequenceBlockShared)
	if e.Caps.Exclusive {
		want = max(seq.Cache, sequenceBlockExclusive)
	}
	for attempt := 0; ; attempt++ {
		st, err := e.readSeq(ctx, seq)
		if err != nil {
			return err
		}
		first, err := nextAfter(seq, st)
		if err != nil {
			return err
		}
		// How many values fit between first and the bound.
		var room uint64
		if seq.Increment > 0 {
			room = uint64(seq.Max-first) / uint64(seq.Increment)
		} else {
			room = uint64(first-seq.Min) / uint64(-seq.Increment)
		}
		n := want
		if room < uint64(n-1) {
			n = int64(room) + 1
		}
		last := first + (n-1)*seq.Increment
		err = e.writeSeq(ctx, seq, st, last, true)
		var cf *kv.ConditionFailedError
		if errors.As(err, &cf) && attempt < 100 {
			continue // another proxy claimed a block first
		}
		if err != nil {
			return ClassifyError(err)
		}
		b.def, b.next, b.left, b.handed = *seq, first, n, 0
		b.version, b.prior = st.version+1, st
		return nil
	}
}

// nextAfter is the value that follows the stored state: the stored value
// itself before any call, else one increment on, wrapping round for a
// CYCLE sequence and failing at the bound otherwise.
func nextAfter(seq *catalog.Sequence, st seqState) (int64, error) {
	if !st.called {
		return st.last, nil
	}
	inc := seq.Increment
	if inc > 0 && st.last <= seq.Max-inc || inc < 0 && st.last >= seq.Min-inc {
		return st.last + inc, nil
	}
	if !seq.Cycle {
		bound, word := seq.Max, "maximum"
		if inc < 0 {
			bound, word = seq.Min, "minimum"
		}
		return 0, pgerr.New(pgerr.SequenceGeneratorLimitExceeded, "nextval: reached %s value of sequence %q (%d)", word, seq.Name, bound)
	}
	if inc > 0 {
		return seq.Min, nil
	}
	return seq.Max, nil
}

// Setval sets the sequence's state, as setval(seq, value, called): the
// next nextval returns value (called false) or the value after it. This
// proxy's claimed block is dropped; other proxies use theirs up first, as
// PostgreSQL sessions do their CACHE.
func (e *Executor) Setval(ctx context.Context, seq *catalog.Sequence, value int64, called bool) error {
	if value < seq.Min || value > seq.Max {
		return pgerr.New(pgerr.NumericValueOutOfRange, "setval: value %d is out of bounds for sequence %q (%d..%d)", value, seq.Name, seq.Min, seq.Max)
	}
	b := e.seqs.block(seq)
	b.mu.Lock()
	defer b.mu.Unlock()
	for attempt := 0; ; attempt++ {
		st, err := e.readSeq(ctx, seq)
		if err != nil {
			return err
		}
		err = e.writeSeq(ctx, seq, st, value, called)
		var cf *kv.ConditionFailedError
		if errors.As(err, &cf) && attempt < 100 {
			continue
		}
		if err != nil {
			return ClassifyError(err)
		}
		b.left = 0
		return nil
	}
}

// release gives back the unused rest of this proxy's block when no other
// proxy claimed since: the state then says what was really handed out, so
// a changed increment or bound applies from the last value returned, as in
// PostgreSQL (ALTER SEQUENCE).
func (e *Executor) release(ctx context.Context, seq *catalog.Sequence) error {
	b := e.seqs.block(seq)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.left == 0 {
		return nil
	}
	st, err := e.readSeq(ctx, seq)
	if err != nil || st.version != b.version {
		return err
	}
	last, called := b.prior.last, b.prior.called
	if b.handed > 0 {
		last, called = b.next-b.def.Increment, true
	}
	err = e.writeSeq(ctx, seq, st, last, called)
	var cf *kv.ConditionFailedError
	if err != nil && !errors.As(err, &cf) {
		return ClassifyError(err)
	}
	b.left = 0
	return nil
}

// CreateSequence creates a sequence and its state.
func (e *Executor) CreateSequence(ctx context.Context, cat *catalog.Catalog, cs *ir.CreateSequence, notice func(*pgerr.Error)) error {
	var seq *catalog.Sequence
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, version uint64) (catalog.Change, error) {
		if s.HasRelation(cs.Seq.Name) {
			if cs.IfNotExists {
				return catalog.Change{}, errSkip
			}
			return catalog.Change{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", cs.Seq.Name)
		}
		if err := s.CheckRelationName(cs.Seq.Name); err != nil {
			return catalog.Change{}, err
		}
		c := *cs.Seq
		c.ID = catalog.ObjectID(version, 0)
		seq = &c
		return catalog.Change{PutSequences: []*catalog.Sequence{seq}}, nil
	})
	if errors.Is(err, errSkip) {
		notice(pgerr.CodedNotice(pgerr.DuplicateTable, "relation %q already exists, skipping", cs.Seq.Name))
		return nil
	}
	return err
}

// AlterSequence changes a sequence's definition, name or state (RESTART).
func (e *Executor) AlterSequence(ctx context.Context, cat *catalog.Catalog, as *ir.AlterSequence, notice func(*pgerr.Error)) error {
	var changed *catalog.Sequence
	var restart *int64
	if snap, err := cat.Snapshot(ctx); err == nil {
		if cur, ok := snap.Sequence(as.Name); ok {
			if err := e.release(ctx, cur); err != nil {
				return err
			}
		}
	}
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		cur, ok := s.Sequence(as.Name)
		if !ok {
			if as.IfExists {
				return catalog.Change{}, errSkip
			}
			return catalog.Change{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", as.Name)
		}
		var ch catalog.Change
		if as.SetSchema && as.RenameTo == cur.Name {
			return ch, nil // already in the schema
		}
		if as.SetSchema && cur.OwnedBy != "" {
			tbl, _, _ := catalog.SplitOwnedBy(cur.OwnedBy)
			_, seqName := catalog.SplitName(cur.Name)
			_, tblName := catalog.SplitName(tbl)
			return ch, pgerr.New(pgerr.FeatureNotSupported, "cannot move an owned sequence into another schema").
				WithDetail("Sequence %q is linked to table %q.", seqName, tblName)
		}
		if as.RenameTo != "" {
			if s.HasRelation(as.RenameTo) {
				if as.SetSchema {
					return ch, errExistsInSchema(as.RenameTo)
				}
				return ch, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", as.RenameTo)
			}
			c := *cur
			c.Name = as.RenameTo
			ch.PutSequences, ch.DeleteSequences = []*catalog.Sequence{&c}, []string{cur.Name}
			renameSequenceUsers(s, cur.Name, c.Name, &ch)
			return ch, nil
		}
		seq, r, err := ir.AlterSequenceDesc(cur, as.Options)
		if err != nil {
			return ch, err
		}
		changed, restart = seq, r
		ch.PutSequences = []*catalog.Sequence{seq}
		return ch, nil
	})
	if errors.Is(err, errSkip) {
		notice(pgerr.Notice("relation %q does not exist, skipping", as.Name))
		return nil
	}
	if err != nil || restart == nil {
		return err
	}
	if cat.CreatedInBlock(changed.ID) {
		// Nobody else draws from it yet: the block's nextval sees the
		// restart, and a rollback takes the sequence with it.
		return e.Setval(ctx, changed, *restart, false)
	}
	return e.afterCommit(ctx, cat, fmt.Sprintf("restarting sequence %q", changed.Name), func(ctx context.Context, _ *catalog.Catalog) error {
		return e.Setval(ctx, changed, *restart, false)
	})
}

// renameSequenceUsers points the columns that draw from a renamed sequence
// at its new name.
func renameSequenceUsers(s *catalog.Snapshot, from, to string, ch *catalog.Change) {
	moved := map[string]string{from: to}
	for _, t := range s.Tables() {
		if drawsFrom(t, moved) {
			nt := t.Clone()
			followSequences(nt, moved)
			ch.Put = append(ch.Put, nt)
		}
	}
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// DropSequence drops sequences; a sequence some column's default or
// identity uses needs CASCADE, which drops those defaults.
func (e *Executor) DropSequence(ctx context.Context, cat *catalog.Catalog, ds *ir.DropSequence, notice func(*pgerr.Error)) error {
	var dropped []*catalog.Sequence
	var cascaded []string
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		dropped, cascaded = nil, nil
		var ch catalog.Change
		for _, name := range ds.Names {
			seq, ok := s.Sequence(name)
			if !ok {
				if err := wrongRelationKind(s, name, "sequence"); err != nil {
					return ch, err
				}
				if ds.IfExists {
					continue
				}
				return ch, pgerr.New(pgerr.UndefinedTable, "sequence %q does not exist", name)
			}
			dropped = append(dropped, seq)
			ch.DeleteSequences = append(ch.DeleteSequences, name)
		}
		defaults, err := sequenceUsers(s, dropped, nil, ds.Cascade)
		if err != nil {
			return ch, err
		}
		for _, d := range defaults {
			ch.Put = append(ch.Put, d.table)
			cascaded = append(cascaded, d.what...)
		}
		if len(dropped) == 0 {
			return ch, errSkip
		}
		return ch, nil
	})
	if err != nil && !errors.Is(err, errSkip) {
		return err
	}
	if ds.IfExists {
		names := make([]string, len(dropped))
		for i, q := range dropped {
			names[i] = q.Name
		}
		skippedNotice("sequence", ds.Names, names, notice)
	}
	cascadeObjectsNotice(cascaded, notice)
	return e.afterCommit(ctx, cat, "deleting the state of dropped sequences", func(ctx context.Context, _ *catalog.Catalog) error {
		return e.dropSequenceState(ctx, dropped)
	})
}

// sequenceDefault is a table whose column defaults lose their sequence.
type sequenceDefault struct {
	table *catalog.Table // the changed descriptor
	what  []string       // the defaults removed, for the NOTICE
}

// sequenceUsers finds the column defaults of tables other than skip that
// draw from the sequences: an error without cascade, else the tables with
// those defaults removed. An identity column cannot lose its sequence.
func sequenceUsers(s *catalog.Snapshot, seqs []*catalog.Sequence, skip []string, cascade bool) ([]sequenceDefault, error) {
	gone := map[string]bool{}
	for _, q := range seqs {
		gone[q.Name] = true
	}
	skipped := map[string]bool{}
	for _, n := range skip {
		skipped[n] = true
	}
	var out []sequenceDefault
	for _, t := range s.Tables() {
		if skipped[t.Name] {
			continue
		}
		var nt *catalog.Table
		var whats []string
		for i, c := range t.Columns {
			if !gone[c.Sequence] {
				continue
			}
			if c.Identity != "" {
				return nil, pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop sequence %s because column %s of table %s requires it", c.Sequence, c.Name, t.Name).
					WithHint("You can drop column %s of table %s instead.", c.Name, t.Name)
			}
			what := "default value for column " + c.Name + " of table " + t.Name
			if !cascade {
				return nil, pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop sequence %s because other objects depend on it", c.Sequence).
					WithDetail("%s depends on sequence %s", what, c.Sequence).
					WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
			}
			if nt == nil {
				nt = t.Clone()
			}
			nt.Columns[i].Default, nt.Columns[i].Sequence = "", ""
			whats = append(whats, what)
		}
		if nt != nil {
			out = append(out, sequenceDefault{table: nt, what: whats})
		}
	}
	return out, nil
}

// dropSequenceState deletes dropped sequences' state items.
func (e *Executor) dropSequenceState(ctx context.Context, seqs []*catalog.Sequence) error {
	for _, q := range seqs {
		e.seqs.forget(q.ID)
		if err := e.Store.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpDelete, Key: catalog.SequenceKey(q.ID)}}}); err != nil {
			return ClassifyError(err)
		}
	}
	return nil
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
