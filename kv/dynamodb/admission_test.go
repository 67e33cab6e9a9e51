package dynamodb

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

func TestBudgetWaits(t *testing.T) {
	var b budget
	b.set(100) // 100 units a second, burst 100
	ctx := context.Background()
	// A bulk read charged 150 units: the bucket is 50 in debt.
	b.charge(150)
	start := time.Now()
	if _, err := b.wait(ctx, -pointReserve); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 20*time.Millisecond {
		t.Fatalf("a point request waited %v with the debt within its reserve", d)
	}
	waited, err := b.wait(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if waited < 300*time.Millisecond {
		t.Fatalf("a bulk request waited %v out of a 50-unit debt at 100 units a second, want about 500ms", waited)
	}
	// Past the reserve, point requests wait too.
	b.charge(400)
	cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := b.wait(cctx, -pointReserve); err == nil {
		t.Fatal("a point request did not wait with the bucket past its reserve")
	}
	// No budget: nothing waits.
	var free budget
	free.charge(1e6)
	if waited, _ := free.wait(ctx, 0); waited > 10*time.Millisecond {
		t.Fatalf("an unbudgeted store queued a request %v", waited)
	}
}

func TestRequestKinds(t *testing.T) {
	var small, large atomic.Int64
	large.Store(100 * 1000)
	for _, c := range []struct {
		op             string
		used           *atomic.Int64
		read, bulk, ok bool
	}{
		{"Query", nil, true, false, true}, {"Query", &small, true, true, true}, {"Query", &large, true, true, true},
		{"GetItem", nil, true, false, true}, {"GetItem", &small, true, false, true}, {"BatchGetItem", &large, true, true, true},
		{"BatchWriteItem", nil, false, true, true}, {"TransactWriteItems", nil, false, false, true}, {"DescribeTable", nil, false, false, false},
	} {
		read, bulk, ok := requestKind(c.op, &dynamodb.QueryInput{}, c.used)
		if read != c.read || bulk != c.bulk || ok != c.ok {
			t.Errorf("%s: read %v bulk %v ok %v", c.op, read, bulk, ok)
		}
	}
	// A statement's Query with a small Limit (LIMIT pushed down) is a
	// point request until the statement has read much.
	if _, bulk, _ := requestKind("Query", &dynamodb.QueryInput{Limit: aws.Int32(10)}, &small); bulk {
		t.Error("a Query of LIMIT 10 is bulk")
	}
}

// TestPoolQueuesBulkNotPoint: a scan's charges (bulk: all only) queue the
// next scan page, not the point reads beside it.
func TestPoolQueuesBulkNotPoint(t *testing.T) {
	var p pool
	p.set(10)
	p.all.charge(300) // a scan page: 30 s of the budget in debt
	ctx := context.Background()
	if waited, err := p.point.wait(ctx, -pointReserve); err != nil || waited > 20*time.Millisecond {
		t.Fatalf("a point read waited %v (%v) behind a scan's debt", waited, err)
	}
	cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := p.all.wait(cctx, 0); err == nil {
		t.Fatal("the next scan page did not queue")
	}
	// Point reads past the budget and its reserve queue too.
	p.all.charge(100)
	p.point.charge(100)
	cctx2, cancel2 := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel2()
	if _, err := p.point.wait(cctx2, -pointReserve); err == nil {
		t.Fatal("point reads past the budget did not queue")
	}
}
