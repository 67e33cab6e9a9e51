package ir

import (
	"math"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/parser"
)

// CreateSequence creates a sequence.
type CreateSequence struct {
	Seq         *catalog.Sequence
	IfNotExists bool
}

// AlterSequence changes a sequence: the executor applies Options to the
// sequence as it is when the change commits (AlterSequenceDesc).
type AlterSequence struct {
	Name     string
	IfExists bool
	Options  parser.SequenceOptions
	RenameTo string
	// SetSchema: RenameTo is the key SET SCHEMA moves the sequence to.
	SetSchema bool
	// Tag is the command tag when it is not ALTER SEQUENCE (ALTER TABLE
	// naming a sequence).
	Tag string
}

// DropSequence drops sequences.
type DropSequence struct {
	Names    []string
	IfExists bool
	// Cascade drops the column defaults that use a sequence.
	Cascade bool
}

// Kind implements Statement.
func (*CreateSequence) Kind() string { return "create_sequence" }

// Describe implements Statement.
func (x *CreateSequence) Describe() Description {
	d := ddl()
	d.CreatesIn = catalog.PublicSchema
	if x != nil && x.Seq != nil {
		// The schema it is created in, which needs CREATE there.
		d.CreatesIn, _ = catalog.SplitName(x.Seq.Name)
	}
	return d
}

// Kind implements Statement.
func (*AlterSequence) Kind() string { return "alter_sequence" }

// Describe implements Statement.
func (x *AlterSequence) Describe() Description {
	d := ddl(refs(ObjectSequence, x.Name)...)
	if x != nil {
		d.Tag = x.Tag
	}
	if x != nil && x.SetSchema {
		// Moving to a schema needs CREATE there.
		if d.CreatesIn, _ = catalog.SplitName(x.RenameTo); d.CreatesIn == "" {
			d.CreatesIn = catalog.PublicSchema
		}
	}
	return d
}

// Kind implements Statement.
func (*DropSequence) Kind() string { return "drop_sequence" }

// Describe implements Statement.
func (x *DropSequence) Describe() Description { return ddl(refs(ObjectSequence, x.Names...)...) }

// sequenceTypes are the types a sequence may have, by canonical name.
var sequenceTypes = map[string]sqltypes.Type{
	"smallint": sqltypes.TypeInt2, "integer": sqltypes.TypeInt4, "bigint": sqltypes.TypeInt8,
}

// typeBounds are the values a sequence of type t can hold.
func typeBounds(t sqltypes.Type) (lo, hi int64) {
	switch t.ID {
	case sqltypes.Int2:
		return math.MinInt16, math.MaxInt16
	case sqltypes.Int4:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// NewSequence builds a sequence's descriptor from CREATE SEQUENCE's
// options (or an identity column's), with PostgreSQL's defaults and
// checks.
func NewSequence(name string, o parser.SequenceOptions) (*catalog.Sequence, error) {
	seq := &catalog.Sequence{Name: name, Type: sqltypes.TypeInt8, Increment: 1, Cache: 1}
	return ApplySequenceOptions(seq, o, true)
}

// AlterSequenceDesc applies ALTER SEQUENCE's options to a sequence; restart
// is the value the sequence restarts from when RESTART was given.
func AlterSequenceDesc(cur *catalog.Sequence, o parser.SequenceOptions) (seq *catalog.Sequence, restart *int64, err error) {
	c := *cur
	out, err := ApplySequenceOptions(&c, o, false)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case o.Restart != nil:
		restart = o.Restart
	case o.RestartStart:
		restart = &out.Start
	}
	if restart != nil && (*restart < out.Min || *restart > out.Max) {
		return nil, nil, pgerr.New(pgerr.InvalidParameterValue, "RESTART value (%d) cannot be %s %s (%d)", *restart,
			map[bool]string{true: "less than", false: "greater than"}[*restart < out.Min],
			map[bool]string{true: "MINVALUE", false: "MAXVALUE"}[*restart < out.Min],
			map[bool]int64{true: out.Min, false: out.Max}[*restart < out.Min])
	}
	return out, restart, nil
}

// applySequenceOptions sets the options given; fresh is true for a new
// sequence (every bound not given takes its default), false for ALTER
// (bounds keep their values unless the type or direction makes them
// invalid, as PostgreSQL does).
func ApplySequenceOptions(seq *catalog.Sequence, o parser.SequenceOptions, fresh bool) (*catalog.Sequence, error) {
	oldLo, oldHi := typeBounds(seq.Type)
	if o.Type != "" {
		seq.Type = sequenceTypes[o.Type]
	}
	lo, hi := typeBounds(seq.Type)
	if o.Increment != nil {
		if *o.Increment == 0 {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "INCREMENT must not be zero")
		}
		seq.Increment = *o.Increment
	}
	asc := seq.Increment > 0
	switch {
	case o.Min != nil:
		seq.Min = *o.Min
	case fresh || o.NoMin || o.Type != "" && seq.Min == oldLo:
		seq.Min = map[bool]int64{true: 1, false: lo}[asc]
	}
	switch {
	case o.Max != nil:
		seq.Max = *o.Max
	case fresh || o.NoMax || o.Type != "" && seq.Max == oldHi:
		seq.Max = map[bool]int64{true: hi, false: -1}[asc]
	}
	if seq.Min < lo || seq.Min > hi {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "MINVALUE (%d) is out of range for sequence data type %s", seq.Min, seq.Type)
	}
	if seq.Max < lo || seq.Max > hi {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "MAXVALUE (%d) is out of range for sequence data type %s", seq.Max, seq.Type)
	}
	if seq.Min >= seq.Max {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "MINVALUE (%d) must be less than MAXVALUE (%d)", seq.Min, seq.Max)
	}
	switch {
	case o.Start != nil:
		seq.Start = *o.Start
	case fresh:
		seq.Start = map[bool]int64{true: seq.Min, false: seq.Max}[asc]
	}
	if seq.Start < seq.Min {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "START value (%d) cannot be less than MINVALUE (%d)", seq.Start, seq.Min)
	}
	if seq.Start > seq.Max {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "START value (%d) cannot be greater than MAXVALUE (%d)", seq.Start, seq.Max)
	}
	if o.Cache != nil {
		if *o.Cache < 1 {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "CACHE (%d) must be greater than zero", *o.Cache)
		}
		seq.Cache = *o.Cache
	}
	if o.Cycle != nil {
		seq.Cycle = *o.Cycle
	}
	if o.OwnedBy != "" {
		seq.OwnedBy = o.OwnedBy
		if o.OwnedBy == "none" {
			seq.OwnedBy = ""
		}
	}
	if o.BitReversed {
		seq.BitReversed = true
	}
	if seq.BitReversed && (seq.Type.ID != sqltypes.Int8 || seq.Increment != 1 || seq.Cycle || seq.Min < 1) {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "a BIT_REVERSED sequence must be bigint, with INCREMENT 1, a positive MINVALUE and NO CYCLE").
			WithDetail("Its values are the bit-reversed counter values %d, %d, ...: unique and positive, but not ordered.", seq.Start, seq.Start+1)
	}
	return seq, nil
}
