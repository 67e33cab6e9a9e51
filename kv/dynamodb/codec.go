package dynamodb

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/zproxy/zproxy/kv"
)

// Names of the table's key attributes and of zproxy's bookkeeping attribute.
// Every name zproxy reserves starts with ReservedPrefix, which an unquoted SQL
// identifier cannot start with; a kv.Attr with such a name is rejected.
const (
	PartitionKeyAttr = "~pk"
	SortKeyAttr      = "~sk"
	// FloatsAttr lists (as a string set) the float attributes of an item
	// that would not read back as floats by the N rule: integral values
	// (stored as N) and values N cannot represent (stored as S).
	FloatsAttr = "~float"
	// TextsAttr lists (as a string set) the string attributes stored as B
	// because they are not valid UTF-8, which S must be.
	TextsAttr      = "~text"
	ReservedPrefix = "~"

	// Transaction bookkeeping (TRANSACTIONS.md). VersionAttr is the commit
	// timestamp of the version an item holds; TombstoneAttr marks a deleted
	// item (a tombstone keeps its VersionAttr so snapshot readers can tell
	// a recent delete from an old absence) and ExpiresAttr is its TTL.
	// IntentTxnAttr, IntentOpAttr and IntentValueAttr are a write intent:
	// the transaction record's id, what the transaction does to the item,
	// and the new value (a map of the item's attributes) for a put.
	// ShareLocksAttr is the set of the large transactions holding a share
	// lock on the item: share locks are compatible with each other, so
	// they are not an intent, which excludes every other transaction.
	ShareLocksAttr  = "~shr"
	VersionAttr     = "~ts"
	TombstoneAttr   = "~del"
	ExpiresAttr     = "~exp"
	IntentTxnAttr   = "~txn"
	IntentOpAttr    = "~op"
	IntentValueAttr = "~new"
)

// keyFrame is prepended to every partition and sort key. DynamoDB rejects an
// empty binary key attribute while kv allows an empty key; a constant leading
// byte maps every kv key to a non-empty one and keeps the bytewise order, so
// range bounds translate one-to-one. It costs the user one byte of the
// 2048-byte partition and 1024-byte sort key limits.
const keyFrame = 0x00

// DynamoDB's N type holds 38 significant digits with magnitudes from 1e-130
// to just under 1e126; float64 values outside that (and NaN, ±Inf, -0) are
// stored as S with their Go text and listed in FloatsAttr.
const (
	minNumberMagnitude = 1e-130
	maxNumberMagnitude = 1e126
)

// maxPartitionKey is the longest binary partition key DynamoDB stores
// (maxSortKey, scan.go, the longest sort key).
const maxPartitionKey = 2048

// checkKeySize refuses a key DynamoDB would reject once framed, before any
// request: the caller gets a *kv.KeyTooLongError (54000), not the
// request's ValidationException.
func checkKeySize(k kv.Key) error {
	if n := len(k.Partition) + 1; n > maxPartitionKey {
		return &kv.KeyTooLongError{Part: "partition", Len: n, Max: maxPartitionKey}
	}
	if n := len(k.Sort) + 1; n > maxSortKey {
		return &kv.KeyTooLongError{Part: "sort", Len: n, Max: maxSortKey}
	}
	return nil
}

func frameKey(b []byte) []byte {
	out := make([]byte, len(b)+1)
	out[0] = keyFrame
	copy(out[1:], b)
	return out
}

func unframeKey(b []byte) ([]byte, error) {
	if len(b) == 0 || b[0] != keyFrame {
		return nil, fmt.Errorf("dynamodb: key %x was not written by zproxy (no frame byte)", b)
	}
	return b[1:], nil
}

// keyAttrs builds the DynamoDB primary key of k.
func keyAttrs(k kv.Key) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		PartitionKeyAttr: &types.AttributeValueMemberB{Value: frameKey(k.Partition)},
		SortKeyAttr:      &types.AttributeValueMemberB{Value: frameKey(k.Sort)},
	}
}

// keyString is a map key identifying k, for deduplicating keys in a batch.
func keyString(k kv.Key) string {
	// The partition's length prefix keeps (a, bc) and (ab, c) apart.
	return strconv.Itoa(len(k.Partition)) + ":" + string(k.Partition) + string(k.Sort)
}

// isSpecialFloat reports whether f cannot be stored exactly as an N.
func isSpecialFloat(f float64) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return true
	}
	if f == 0 {
		return math.Signbit(f) // -0 would come back as 0
	}
	a := math.Abs(f)
	return a < minNumberMagnitude || a >= maxNumberMagnitude
}

// formatFloat is the shortest text that parses back to exactly f.
func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// encodeItem builds the DynamoDB item for a put of attrs under k.
func encodeItem(k kv.Key, attrs []kv.Attr) (map[string]types.AttributeValue, error) {
	item := keyAttrs(k)
	var floats, texts []string
	for _, a := range attrs {
		if a.Name == "" {
			return nil, fmt.Errorf("dynamodb: empty attribute name")
		}
		if a.Name == kv.ExpiresAttr && a.Kind == kv.AttrInt {
			// The table's TTL attribute (Open enables DynamoDB's TTL on it).
			item[ExpiresAttr] = &types.AttributeValueMemberN{Value: strconv.FormatInt(a.I, 10)}
			continue
		}
		if strings.HasPrefix(a.Name, ReservedPrefix) {
			return nil, fmt.Errorf("dynamodb: attribute name %q is reserved (names starting with %q belong to zproxy)", a.Name, ReservedPrefix)
		}
		if _, dup := item[a.Name]; dup {
			return nil, fmt.Errorf("dynamodb: attribute %q given twice", a.Name)
		}
		var v types.AttributeValue
		switch a.Kind {
		case kv.AttrNull:
			v = &types.AttributeValueMemberNULL{Value: true}
		case kv.AttrBool:
			v = &types.AttributeValueMemberBOOL{Value: a.I != 0}
		case kv.AttrInt:
			v = &types.AttributeValueMemberN{Value: strconv.FormatInt(a.I, 10)}
		case kv.AttrFloat:
			switch {
			case isSpecialFloat(a.F):
				v = &types.AttributeValueMemberS{Value: formatFloat(a.F)}
				floats = append(floats, a.Name)
			case a.F == math.Trunc(a.F):
				// DynamoDB returns 2.0 as "2", which reads back as an int.
				v = &types.AttributeValueMemberN{Value: formatFloat(a.F)}
				floats = append(floats, a.Name)
			default:
				v = &types.AttributeValueMemberN{Value: formatFloat(a.F)}
			}
		case kv.AttrString:
			if utf8.ValidString(a.S) {
				v = &types.AttributeValueMemberS{Value: a.S}
			} else {
				v = &types.AttributeValueMemberB{Value: []byte(a.S)}
				texts = append(texts, a.Name)
			}
		case kv.AttrBytes:
			b := a.B
			if b == nil {
				b = []byte{} // the SDK would omit a nil B and send an invalid value
			}
			v = &types.AttributeValueMemberB{Value: b}
		default:
			return nil, fmt.Errorf("dynamodb: attribute %q has unknown kind %d", a.Name, a.Kind)
		}
		item[a.Name] = v
	}
	if len(floats) > 0 {
		item[FloatsAttr] = &types.AttributeValueMemberSS{Value: floats}
	}
	if len(texts) > 0 {
		item[TextsAttr] = &types.AttributeValueMemberSS{Value: texts}
	}
	return item, nil
}

// decodeItem turns a DynamoDB item into kv attributes, sorted by name
// (DynamoDB keeps no attribute order), leaving out zproxy's reserved
// attributes. It returns the item's kv sort key (nil for an item without
// one, such as an intent's new value).
//
// An N comes back as AttrInt when its text has no fraction or exponent and
// fits an int64, otherwise as AttrFloat, unless FloatsAttr lists it (zproxy
// lists integral floats, which DynamoDB returns without a fraction). Numbers
// other tools wrote follow the rule alone, so readers coerce by column type. Attributes of types zproxy never writes (sets, lists, maps) are an
// error: the item was not written by zproxy.
func decodeItem(item map[string]types.AttributeValue) (sort []byte, attrs []kv.Attr, err error) {
	listedFloats, err := nameSet(item, FloatsAttr)
	if err != nil {
		return nil, nil, err
	}
	listedTexts, err := nameSet(item, TextsAttr)
	if err != nil {
		return nil, nil, err
	}
	attrs = make([]kv.Attr, 0, len(item))
	for name, v := range item {
		if name == SortKeyAttr {
			b, ok := v.(*types.AttributeValueMemberB)
			if !ok {
				return nil, nil, fmt.Errorf("dynamodb: sort key is %T, want B", v)
			}
			if sort, err = unframeKey(b.Value); err != nil {
				return nil, nil, err
			}
			continue
		}
		if strings.HasPrefix(name, ReservedPrefix) {
			continue // keys and bookkeeping
		}
		a := kv.Attr{Name: name}
		switch v := v.(type) {
		case *types.AttributeValueMemberNULL:
			a.Kind = kv.AttrNull
		case *types.AttributeValueMemberBOOL:
			a.Kind = kv.AttrBool
			if v.Value {
				a.I = 1
			}
		case *types.AttributeValueMemberN:
			if a, err = decodeNumber(name, v.Value, listedFloats[name]); err != nil {
				return nil, nil, err
			}
		case *types.AttributeValueMemberS:
			if listedFloats[name] {
				f, err := strconv.ParseFloat(v.Value, 64)
				if err != nil {
					return nil, nil, fmt.Errorf("dynamodb: attribute %q is listed in %s but holds %q", name, FloatsAttr, v.Value)
				}
				a.Kind, a.F = kv.AttrFloat, f
			} else {
				a.Kind, a.S = kv.AttrString, v.Value
			}
		case *types.AttributeValueMemberB:
			if listedTexts[name] {
				a.Kind, a.S = kv.AttrString, string(v.Value)
				break
			}
			a.Kind, a.B = kv.AttrBytes, v.Value
			if a.B == nil {
				a.B = []byte{}
			}
		default:
			return nil, nil, fmt.Errorf("dynamodb: attribute %q has type %T, which zproxy does not use", name, v)
		}
		attrs = append(attrs, a)
	}
	slices.SortFunc(attrs, func(x, y kv.Attr) int { return strings.Compare(x.Name, y.Name) })
	return sort, attrs, nil
}

// nameSet reads one of zproxy's string-set attributes listing names.
func nameSet(item map[string]types.AttributeValue, attr string) (map[string]bool, error) {
	v, ok := item[attr]
	if !ok {
		return nil, nil
	}
	ss, ok := v.(*types.AttributeValueMemberSS)
	if !ok {
		return nil, fmt.Errorf("dynamodb: attribute %s is %T, want a string set", attr, v)
	}
	set := make(map[string]bool, len(ss.Value))
	for _, n := range ss.Value {
		set[n] = true
	}
	return set, nil
}

func decodeNumber(name, text string, isFloat bool) (kv.Attr, error) {
	a := kv.Attr{Name: name}
	if !isFloat && !strings.ContainsAny(text, ".eE") {
		if i, err := strconv.ParseInt(text, 10, 64); err == nil {
			a.Kind, a.I = kv.AttrInt, i
			return a, nil
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !isRangeError(err) {
		return a, fmt.Errorf("dynamodb: attribute %q holds N %q: %w", name, text, err)
	}
	a.Kind, a.F = kv.AttrFloat, f
	return a, nil
}

// isRangeError accepts numbers another tool wrote beyond float64's range:
// ParseFloat still returns the nearest value (±Inf or 0).
func isRangeError(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// itemSize approximates DynamoDB's item size (attribute names plus values),
// for Stats.BytesRead.
func itemSize(item map[string]types.AttributeValue) int {
	n := 0
	for name, v := range item {
		n += len(name)
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			n += len(v.Value)
		case *types.AttributeValueMemberB:
			n += len(v.Value)
		case *types.AttributeValueMemberN:
			n += (len(v.Value)+1)/2 + 1
		case *types.AttributeValueMemberSS:
			for _, s := range v.Value {
				n += len(s)
			}
		default:
			n++
		}
	}
	return n
}
