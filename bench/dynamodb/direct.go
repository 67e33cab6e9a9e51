package main

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/kv"
	kvdynamodb "github.com/zproxy/zproxy/kv/dynamodb"
	"github.com/zproxy/zproxy/zorder"
)

// keyFrame is the byte kv/dynamodb prepends to every partition and sort key
// (kv/dynamodb/codec.go) so that an empty kv key is a valid binary key.
const keyFrame = 0x00

func frame(b []byte) []byte { return append([]byte{keyFrame}, b...) }

// direct issues DynamoDB requests itself, bypassing zproxy, on the items
// zproxy wrote.
type direct struct {
	client *dynamodb.Client
	table  string
	t      *catalog.Table
	ix     *catalog.Index
	zs     *zorder.Schema
	// bounds are by_place's data bounds (catalog.ReadZBounds) when the
	// harness started querying, which zproxy clips its boxes to; nil when
	// the index keeps none.
	bounds *catalog.ZBounds
}

// openDirect builds an SDK client for endpoint and reads zproxy's catalog
// from the table to find the readings table and its by_place index.
func openDirect(ctx context.Context, endpoint, table string) (*direct, error) {
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, err
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1"
	}
	client := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		o.BaseEndpoint = aws.String(endpoint)
		// DynamoDB Local leaves out X-Amz-Crc32 on some responses.
		o.DisableValidateResponseChecksum = true
	})
	store, err := kvdynamodb.Open(ctx, kvdynamodb.Options{Table: table, Endpoint: endpoint, Region: cfg.Region})
	if err != nil {
		return nil, err
	}
	defer store.Close()
	cat, err := catalog.Open(ctx, store)
	if err != nil {
		return nil, err
	}
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	t, err := snap.Table("readings")
	if err != nil {
		return nil, err
	}
	ix := t.Index("by_place")
	if ix == nil || ix.Kind != catalog.KindZOrder {
		return nil, fmt.Errorf("readings has no Z-order index by_place")
	}
	bounds, err := catalog.ReadZBounds(ctx, store, ix)
	if err != nil {
		return nil, err
	}
	return &direct{client: client, table: table, t: t, ix: ix, zs: t.ZSchema(ix), bounds: bounds}, nil
}

// clippedBox is the query box narrowed to the index's data bounds, as
// zproxy's planner narrows it: an unbounded ts spans the data's codes, not
// the whole int64 space.
func (d *direct) clippedBox(b box) zorder.Box {
	zb := d.zbox(b)
	if d.bounds != nil {
		d.bounds.Clip(zb)
	}
	return zb
}

// zbox is the query box in Z-order codes, built the way the planner does:
// each bounded attribute narrowed to the codes of its closed interval.
func (d *direct) zbox(b box) zorder.Box {
	zb := d.zs.Universe()
	zb.Narrow(0, d.zs.Attr(0).FloatBetween(b.latLo, b.latHi))
	zb.Narrow(1, d.zs.Attr(1).FloatBetween(b.lonLo, b.lonHi))
	if b.threeD {
		zb.Narrow(2, d.zs.Attr(2).IntBetween(b.tsLo, b.tsHi))
	}
	return zb
}

// naiveRange is the single sort-key range [zmin, zmax] of the box: from the
// Z-address of its lower corner to the end of the addresses equal to that of
// its upper corner (entry keys are address ‖ primary key).
func (d *direct) naiveRange(b box) (lo, hiExclusive []byte) {
	zb := d.zbox(b)
	low := make([]uint64, len(zb))
	high := make([]uint64, len(zb))
	for i, iv := range zb {
		low[i], high[i] = iv.Lo, iv.Hi
	}
	return d.zs.Encode(low), kv.PrefixEnd(d.zs.Encode(high))
}

// filter is the box test as a FilterExpression on the typed lat, lon and
// ts attributes every index entry carries. Numbers are sent in the shortest
// decimal form that reads back as the same float64, and DynamoDB compares N
// values as decimals, so the test is exact.
func filter(b box) (string, map[string]string, map[string]types.AttributeValue) {
	num := func(f float64) types.AttributeValue {
		return &types.AttributeValueMemberN{Value: strconv.FormatFloat(f, 'g', -1, 64)}
	}
	expr := "#lat BETWEEN :latlo AND :lathi AND #lon BETWEEN :lonlo AND :lonhi"
	names := map[string]string{"#lat": "lat", "#lon": "lon", "#ts": "ts", "#sid": "sensor_id"}
	values := map[string]types.AttributeValue{
		":latlo": num(b.latLo), ":lathi": num(b.latHi),
		":lonlo": num(b.lonLo), ":lonhi": num(b.lonHi),
	}
	if b.threeD {
		expr += " AND #ts BETWEEN :tslo AND :tshi"
		values[":tslo"] = &types.AttributeValueMemberN{Value: strconv.FormatInt(b.tsLo, 10)}
		values[":tshi"] = &types.AttributeValueMemberN{Value: strconv.FormatInt(b.tsHi, 10)}
	}
	return expr, names, values
}

// collect adds the primary keys of returned items to m.
func collect(m *measurement, items []map[string]types.AttributeValue) error {
	for _, it := range items {
		sid, ok1 := it["sensor_id"].(*types.AttributeValueMemberN)
		ts, ok2 := it["ts"].(*types.AttributeValueMemberN)
		if !ok1 || !ok2 {
			return fmt.Errorf("item without numeric sensor_id and ts: %v", it)
		}
		s, err1 := strconv.ParseInt(sid.Value, 10, 64)
		t, err2 := strconv.ParseInt(ts.Value, 10, 64)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("item with sensor_id %q, ts %q", sid.Value, ts.Value)
		}
		m.keys[pk{s, t}] = true
	}
	return nil
}

// queryRanges reads the sort-key ranges [lo, hi) of every index shard with
// Query (BETWEEN, following LastEvaluatedKey), eventually consistent like
// zproxy's SELECTs, with the box test as a FilterExpression.
func (d *direct) queryRanges(ctx context.Context, b box, ranges []zorder.Range) (measurement, error) {
	m := measurement{keys: map[pk]bool{}, ranges: len(ranges)}
	expr, names, values := filter(b)
	names["#p"], names["#s"] = kvdynamodb.PartitionKeyAttr, kvdynamodb.SortKeyAttr
	cond := "#p = :p AND #s BETWEEN :lo AND :hi"
	projection := "#sid, #ts"
	start := time.Now()
	for shard := range max(d.ix.Shards, 1) {
		for _, r := range ranges {
			vals := make(map[string]types.AttributeValue, len(values)+3)
			for k, v := range values {
				vals[k] = v
			}
			vals[":p"] = &types.AttributeValueMemberB{Value: frame(catalog.IndexPartition(d.ix.ID, shard))}
			vals[":lo"] = &types.AttributeValueMemberB{Value: frame(r.Lo)}
			// No entry key equals an address bound (entries are longer), so
			// the inclusive BETWEEN reads exactly [Lo, Hi).
			hi := []byte{keyFrame + 1}
			if r.Hi != nil {
				hi = frame(r.Hi)
			}
			vals[":hi"] = &types.AttributeValueMemberB{Value: hi}
			in := &dynamodb.QueryInput{
				TableName:                 &d.table,
				KeyConditionExpression:    &cond,
				FilterExpression:          &expr,
				ProjectionExpression:      &projection,
				ExpressionAttributeNames:  names,
				ExpressionAttributeValues: vals,
				ReturnConsumedCapacity:    types.ReturnConsumedCapacityTotal,
			}
			for {
				resp, err := d.client.Query(ctx, in)
				if err != nil {
					return m, fmt.Errorf("Query: %w", err)
				}
				m.add(resp.ScannedCount, resp.Count, resp.ConsumedCapacity)
				if err := collect(&m, resp.Items); err != nil {
					return m, err
				}
				if len(resp.LastEvaluatedKey) == 0 {
					break
				}
				in.ExclusiveStartKey = resp.LastEvaluatedKey
			}
		}
	}
	m.elapsed = time.Since(start)
	return m, nil
}

// naive is method (b): one Query per index shard over [zmin, zmax].
func (d *direct) naive(ctx context.Context, b box) (measurement, error) {
	lo, hi := d.naiveRange(b)
	return d.queryRanges(ctx, b, []zorder.Range{{Lo: lo, Hi: hi}})
}

// budgeted is method (d): zproxy's decomposition of the box, clipped to the
// data bounds as zproxy clips it, into at most budget ranges per shard, each
// read to its end (no BIGMIN restart). Budget 1 is [zmin, zmax] of the
// clipped box.
func (d *direct) budgeted(ctx context.Context, b box, budget int) (measurement, error) {
	return d.queryRanges(ctx, b, d.zs.Ranges(d.clippedBox(b), budget))
}

// add accounts for one Query or Scan response.
func (m *measurement) add(scanned, count int32, capacity *types.ConsumedCapacity) {
	m.requests++
	m.items += int(scanned)
	m.rows += int(count)
	if scanned == 0 {
		m.empty++
	}
	if capacity != nil {
		m.rcu += aws.ToFloat64(capacity.CapacityUnits)
	}
}

// scan is method (c): a Scan of the whole table (rows, index entries and
// catalog) with a FilterExpression that keeps by_place's entries in the box.
// Every item of the table is read and charged; only the filter differs.
func (d *direct) scan(ctx context.Context, b box) (measurement, error) {
	m := measurement{keys: map[pk]bool{}}
	expr, names, values := filter(b)
	// Table rows carry lat/lon/ts too: keep only by_place's entries, whose
	// partition key starts with the framed 'I' ‖ index id.
	prefix := frame(catalog.IndexPartition(d.ix.ID, 0))
	prefix = prefix[:len(prefix)-2] // drop the shard
	expr = "begins_with(#p, :ix) AND " + expr
	names["#p"] = kvdynamodb.PartitionKeyAttr
	values[":ix"] = &types.AttributeValueMemberB{Value: prefix}
	projection := "#sid, #ts"
	in := &dynamodb.ScanInput{
		TableName:                 &d.table,
		FilterExpression:          &expr,
		ProjectionExpression:      &projection,
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
		ReturnConsumedCapacity:    types.ReturnConsumedCapacityTotal,
	}
	start := time.Now()
	for {
		resp, err := d.client.Scan(ctx, in)
		if err != nil {
			return m, fmt.Errorf("Scan: %w", err)
		}
		m.add(resp.ScannedCount, resp.Count, resp.ConsumedCapacity)
		if err := collect(&m, resp.Items); err != nil {
			return m, err
		}
		if len(resp.LastEvaluatedKey) == 0 {
			break
		}
		in.ExclusiveStartKey = resp.LastEvaluatedKey
	}
	m.elapsed = time.Since(start)
	return m, nil
}
