package dynamodb

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"

	"github.com/zproxy/zproxy/kv"
)

// Admission control: a proxy may be given a share of the table's read and
// write capacity a second (SetCapacityBudget; the proxies of a table
// divide its budget among themselves). Each request is admitted before it
// is sent and charged the capacity DynamoDB reports after it, so a
// statement that reads more than the budget allows waits (queues) instead
// of drawing the table into throttling, which would fail every proxy's
// requests alike.
//
// Requests are of two kinds. Bulk requests wait until the budget, charged
// with every request, is out of debt: a statement's range reads (Query
// pages) unless a small LIMIT bounds them, every read of a statement that
// has already consumed bulkAfter units (the executor carries the
// statement's consumption in the context, kv.WithReadCost), and
// BatchWriteItem (COPY, bulk loads). Point requests
// (every other read, single transactions) wait only on what point
// requests themselves consumed: a full scan's pages queue while the point
// reads and small statements beside them keep their latency, and bulk
// work gets what point work leaves of the budget. Only when point
// requests alone exceed the budget (by pointReserve seconds of it) do
// they wait too.

// pointReserve is how far, in seconds of the budget, point requests may
// run their own bucket into debt.
const pointReserve = 2

// bulkAfter is the read capacity a statement consumes before its further
// reads are bulk: 8 units read 32 KB strongly consistent.
const bulkAfter = 8

// budget is a token bucket of capacity units, refilled at rate a second up
// to burst, and charged after each request; rate 0 admits everything.
type budget struct {
	mu     sync.Mutex
	rate   float64
	burst  float64
	tokens float64
	last   time.Time
}

// set changes the rate (and burst: one second of it, at least 1).
func (b *budget) set(rate float64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill(time.Now())
	b.rate, b.burst = rate, max(rate, 1)
	b.tokens = min(b.tokens, b.burst)
}

func (b *budget) refill(now time.Time) {
	if !b.last.IsZero() && b.rate > 0 {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	}
	b.last = now
}

// charge takes units consumed by a request that has completed.
func (b *budget) charge(units float64) {
	if units <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill(time.Now())
	if b.rate > 0 {
		b.tokens -= units
	}
}

// wait blocks until the bucket holds at least floor seconds of the budget
// (0 for bulk requests, -pointReserve for point requests), returning how
// long it waited.
func (b *budget) wait(ctx context.Context, floorSeconds float64) (time.Duration, error) {
	start := time.Now()
	for {
		b.mu.Lock()
		b.refill(time.Now())
		rate, tokens := b.rate, b.tokens
		b.mu.Unlock()
		floor := floorSeconds * rate
		if rate <= 0 || tokens >= floor {
			return time.Since(start), nil
		}
		d := time.Duration((floor - tokens) / rate * float64(time.Second))
		d = min(max(d, time.Millisecond), 100*time.Millisecond)
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return time.Since(start), ctx.Err()
		case <-t.C:
		}
	}
}

// pool is one kind of capacity's budget: all requests charge all, point
// requests charge point too.
type pool struct{ all, point budget }

func (p *pool) set(rate float64) {
	p.all.set(rate)
	p.point.set(rate)
}

// admission holds a proxy's read and write budgets.
type admission struct {
	read, write pool
	obs         func(kind string, waited time.Duration)
}

// smallQuery is the largest Limit of a Query that is a point request (a
// statement's LIMIT pushed down).
const smallQuery = 100

// requestKind classifies a DynamoDB operation of a statement that has
// consumed used thousandths of a read unit (nil: no statement's read, such
// as the catalog's): which budget it draws from and whether it is bulk; ok
// is false for the control operations (DescribeTable and the like), which
// are never queued. A statement's Query without a small Limit is bulk
// from its first page: it reads a range whose end it does not know.
func requestKind(op string, input any, used *atomic.Int64) (read, bulk, ok bool) {
	switch op {
	case "Query", "Scan":
		if used == nil {
			return true, false, true
		}
		var limit *int32
		switch in := input.(type) {
		case *dynamodb.QueryInput:
			limit = in.Limit
		case *dynamodb.ScanInput:
			limit = in.Limit
		}
		return true, limit == nil || *limit > smallQuery || used.Load() > bulkAfter*1000, true
	case "GetItem", "BatchGetItem", "TransactGetItems":
		return true, used != nil && used.Load() > bulkAfter*1000, true
	case "BatchWriteItem":
		return false, true, true
	case "PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems":
		return false, false, true
	}
	return false, false, false
}

// middleware admits each operation before it is sent (once, whatever its
// retries).
func (a *admission) middleware(stack *middleware.Stack) error {
	return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("zproxyAdmission",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			read, bulk, ok := requestKind(awsmiddleware.GetOperationName(ctx), in.Parameters, kv.ReadCostOf(ctx))
			if !ok {
				return next.HandleInitialize(ctx, in)
			}
			{
				p, kind := &a.write, "write"
				if read {
					p, kind = &a.read, "read"
				}
				b, floor := &p.point, -float64(pointReserve)
				if bulk {
					b, floor, kind = &p.all, 0, kind+"_bulk"
				}
				waited, err := b.wait(ctx, floor)
				if waited > 0 && a.obs != nil {
					a.obs(kind, waited)
				}
				if err != nil {
					return middleware.InitializeOutput{}, middleware.Metadata{}, err
				}
				out, md, err := next.HandleInitialize(ctx, in)
				if units := consumedUnits(out.Result); units > 0 {
					p.all.charge(units)
					if !bulk {
						p.point.charge(units)
					}
				}
				return out, md, err
			}
		}), middleware.After)
}

// consumedUnits is the capacity an operation's output reports.
func consumedUnits(result any) float64 {
	var cs []types.ConsumedCapacity
	one := func(c *types.ConsumedCapacity) {
		if c != nil {
			cs = append(cs, *c)
		}
	}
	switch r := result.(type) {
	case *dynamodb.QueryOutput:
		one(r.ConsumedCapacity)
	case *dynamodb.ScanOutput:
		one(r.ConsumedCapacity)
	case *dynamodb.GetItemOutput:
		one(r.ConsumedCapacity)
	case *dynamodb.PutItemOutput:
		one(r.ConsumedCapacity)
	case *dynamodb.UpdateItemOutput:
		one(r.ConsumedCapacity)
	case *dynamodb.DeleteItemOutput:
		one(r.ConsumedCapacity)
	case *dynamodb.BatchGetItemOutput:
		cs = r.ConsumedCapacity
	case *dynamodb.BatchWriteItemOutput:
		cs = r.ConsumedCapacity
	case *dynamodb.TransactWriteItemsOutput:
		cs = r.ConsumedCapacity
	case *dynamodb.TransactGetItemsOutput:
		cs = r.ConsumedCapacity
	}
	units := 0.0
	for _, c := range cs {
		units += aws.ToFloat64(c.CapacityUnits)
	}
	return units
}

// SetCapacityBudget sets the read and write capacity units a second this
// proxy may consume (its share of the table's budget); 0 is unbounded.
func (s *Store) SetCapacityBudget(read, write float64) {
	s.adm.read.set(read)
	s.adm.write.set(write)
}

// ProvisionedCapacity is the table's provisioned read and write capacity
// units a second, as DescribeTable gave them when the store opened; 0 for
// an on-demand table.
func (s *Store) ProvisionedCapacity() (read, write float64) {
	return s.provisionedRead, s.provisionedWrite
}

// throttleObserver is what an Observer may implement to count the
// requests DynamoDB throttled (each retried by the SDK's jittered backoff)
// and the time requests queued for the capacity budget.
type throttleObserver interface {
	ObserveThrottle(op string)
	ObserveQueued(kind string, waited time.Duration)
}

// countingRetryer is the SDK's retryer, counting throttled attempts.
type countingRetryer struct {
	aws.RetryerV2
	throttled func(err error)
}

func (r countingRetryer) RetryDelay(attempt int, err error) (time.Duration, error) {
	if retry.IsErrorThrottles(retry.DefaultThrottles).IsErrorThrottle(err) == aws.TrueTernary && r.throttled != nil {
		r.throttled(err)
	}
	return r.RetryerV2.RetryDelay(attempt, err)
}

// readRetry is the per-request option of the reads (Query, GetItem,
// BatchGetItem): a response cut short, the connection lost in the middle
// of its body (the SDK's "deserialization failed, unexpected EOF"), is
// retried as a connection error is. A read can be sent again; a write's
// response cut short cannot be, since the write may have applied (its
// conditions would then fail the retry), so writes keep the SDK's rules.
func readRetry(o *dynamodb.Options) {
	if r, ok := o.Retryer.(aws.RetryerV2); ok {
		o.Retryer = cutShortRetryer{r}
	}
}

// cutShortRetryer retries, besides what its retryer retries, responses
// cut short.
type cutShortRetryer struct{ aws.RetryerV2 }

func (r cutShortRetryer) IsErrorRetryable(err error) bool {
	return r.RetryerV2.IsErrorRetryable(err) || cutShort(err)
}

// cutShort reports whether err is a response body that ended early.
func cutShort(err error) bool {
	var de *smithy.DeserializationError
	return errors.As(err, &de) && (errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF))
}
