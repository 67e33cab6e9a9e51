package dynamodb

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/zproxy/zproxy/kv"
)

// BackendName is the backend label in Capabilities, metrics and EXPLAIN.
const BackendName = "dynamodb"

// DynamoDB's per-request limits.
const (
	maxTransactItems = 100
	maxBatchGetKeys  = 100
	maxBatchWrite    = 25
)

// Options configures Open. Only Table is required.
type Options struct {
	// Table is the DynamoDB table holding every zproxy item.
	Table string
	// Region overrides the SDK's configured region. With an Endpoint and no
	// region anywhere, "us-east-1" is used (DynamoDB Local ignores it).
	Region string
	// Endpoint, when set, is the base URL of a DynamoDB-compatible service
	// such as DynamoDB Local ("http://127.0.0.1:8000").
	Endpoint string
	// Credentials overrides the SDK's default credential chain (env, shared
	// profile, instance role). Tests against DynamoDB Local pass static
	// dummy credentials here.
	Credentials aws.CredentialsProvider
	// Observer, if set, receives every request and the capacity it consumed.
	Observer kv.Observer
	// MaxConcurrency bounds the requests one Get or Write runs in parallel
	// and the ranges of a scan's shard read at once (Capabilities.
	// ScanFanout) (default 8).
	MaxConcurrency int
	// MaxAttempts is the SDK retryer's attempts per request, first included,
	// for throttling and transient errors (default 5). The same budget bounds
	// zproxy's own retries of unprocessed keys and transaction conflicts.
	MaxAttempts int
	// MaxBackoff caps the delay between attempts (default 1s).
	MaxBackoff time.Duration
	// DialTimeout bounds connecting to the endpoint (default 3s), so an
	// unreachable endpoint fails requests quickly.
	DialTimeout time.Duration
	// AttemptTimeout bounds one HTTP attempt, response body included
	// (default 30s; a BatchGetItem may return 16 MB).
	AttemptTimeout time.Duration
	// RequestLatency is reported in Capabilities for the planner (default 5ms).
	RequestLatency time.Duration
	// ClientOptions are applied last to the SDK client's options; tests use
	// them to add middleware (fault injection).
	ClientOptions []func(*dynamodb.Options)

	// TxnTimeout is how long a large transaction's record may go without
	// a heartbeat before another proxy may abort it (default 10s): the
	// longest a crashed proxy's transaction can hold its keys.
	TxnTimeout time.Duration
	// TombstoneTTL is how long a deleted item's tombstone is kept for
	// snapshot readers before DynamoDB's TTL may remove it (default 24h);
	// it bounds the age of a transaction's snapshot.
	TombstoneTTL time.Duration
	// UncertaintyWindow bounds, with the proxies' clock skew, how late a
	// commit may become visible after its timestamp was chosen (default
	// 1s). A transaction reading a version younger than that re-checks
	// what it read before (TRANSACTIONS.md, "Isolation").
	UncertaintyWindow time.Duration
}

// Store is a kv.Store over one DynamoDB table. It is safe for concurrent use.
type Store struct {
	client      *dynamodb.Client
	table       string
	obs         kv.Observer
	concurrency int
	maxAttempts int
	maxBackoff  time.Duration
	latency     time.Duration
	closed      atomic.Bool

	clock        clock
	records      recordCache
	txnTimeout   time.Duration
	tombstoneTTL time.Duration
	uncertainty  time.Duration
	lateCommits  atomic.Int64

	// adm queues requests for the proxy's share of the table's capacity
	// (admission.go); provisionedRead and provisionedWrite are the
	// table's provisioned capacity (0: on demand).
	adm                               *admission
	provisionedRead, provisionedWrite float64

	// testHook, when set by a test, is called at stages of a large
	// commit; an error stops the commit there as if the process died.
	testHook func(stage string) error
}

var _ kv.Store = (*Store)(nil)

// Open connects to DynamoDB, creates the table if it is missing (on-demand
// billing, binary keys PartitionKeyAttr HASH and SortKeyAttr RANGE), waits
// until it is active, and checks that an existing table has that key schema.
func Open(ctx context.Context, opts Options) (*Store, error) {
	if opts.Table == "" {
		return nil, errors.New("dynamodb: no table name")
	}
	setDefault(&opts.MaxConcurrency, 8)
	setDefault(&opts.MaxAttempts, 5)
	setDefault(&opts.MaxBackoff, time.Second)
	setDefault(&opts.DialTimeout, 3*time.Second)
	setDefault(&opts.AttemptTimeout, 30*time.Second)
	setDefault(&opts.RequestLatency, 5*time.Millisecond)
	setDefault(&opts.TxnTimeout, 10*time.Second)
	setDefault(&opts.TombstoneTTL, 24*time.Hour)
	setDefault(&opts.UncertaintyWindow, time.Second)

	adm := &admission{}
	tobs, _ := opts.Observer.(throttleObserver)
	if tobs != nil {
		adm.obs = tobs.ObserveQueued
	}
	httpClient := awshttp.NewBuildableClient().
		WithTimeout(opts.AttemptTimeout).
		WithDialerOptions(func(d *net.Dialer) { d.Timeout = opts.DialTimeout }).
		WithTransportOptions(func(t *http.Transport) {
			t.MaxIdleConnsPerHost = 2 * opts.MaxConcurrency
		})
	loadOpts := []func(*config.LoadOptions) error{
		config.WithHTTPClient(httpClient),
		config.WithRetryer(func() aws.Retryer {
			std := retry.NewStandard(func(o *retry.StandardOptions) {
				o.MaxAttempts = opts.MaxAttempts
				o.MaxBackoff = opts.MaxBackoff
				// The client-side retry quota would turn a DynamoDB outage
				// into failures that outlast it; retries are bounded by
				// MaxAttempts anyway.
				o.RateLimiter = ratelimit.None
			})
			// Throttled requests are retried after the standard
			// retryer's jittered exponential backoff; they are counted.
			return countingRetryer{RetryerV2: std, throttled: func(err error) {
				if tobs != nil {
					code := "throttled"
					var api smithy.APIError
					if errors.As(err, &api) {
						code = api.ErrorCode()
					}
					tobs.ObserveThrottle(code)
				}
			}}
		}),
	}
	if opts.Region != "" {
		loadOpts = append(loadOpts, config.WithRegion(opts.Region))
	}
	if opts.Credentials != nil {
		loadOpts = append(loadOpts, config.WithCredentialsProvider(opts.Credentials))
	}
	cfg, err := config.LoadDefaultConfig(ctx, loadOpts...)
	if err != nil {
		return nil, fmt.Errorf("dynamodb: loading AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		if opts.Endpoint == "" {
			return nil, errors.New("dynamodb: no region configured (set the region option or AWS_REGION)")
		}
		cfg.Region = "us-east-1"
	}
	client := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		if opts.Endpoint != "" {
			o.BaseEndpoint = aws.String(opts.Endpoint)
			// DynamoDB Local leaves out the X-Amz-Crc32 header on some
			// responses, which the SDK then reports as a checksum mismatch.
			o.DisableValidateResponseChecksum = true
		}
		o.APIOptions = append(o.APIOptions, adm.middleware)
		for _, fn := range opts.ClientOptions {
			fn(o)
		}
	})
	s := &Store{
		client:      client,
		table:       opts.Table,
		obs:         opts.Observer,
		concurrency: opts.MaxConcurrency,
		maxAttempts: opts.MaxAttempts,
		maxBackoff:  opts.MaxBackoff,
		latency:     opts.RequestLatency,

		adm:          adm,
		clock:        clock{now: time.Now},
		txnTimeout:   opts.TxnTimeout,
		tombstoneTTL: opts.TombstoneTTL,
		uncertainty:  opts.UncertaintyWindow,
	}
	if err := s.ensureTable(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

func setDefault[T int | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// ensureTable creates the table when it does not exist and verifies its key
// schema. Several proxies may start at once: losing the creation race
// (ResourceInUseException) is fine.
func (s *Store) ensureTable(ctx context.Context) error {
	desc, err := s.client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: &s.table})
	var notFound *types.ResourceNotFoundException
	switch {
	case errors.As(err, &notFound):
		_, err = s.client.CreateTable(ctx, &dynamodb.CreateTableInput{
			TableName:   &s.table,
			BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{
				{AttributeName: aws.String(PartitionKeyAttr), AttributeType: types.ScalarAttributeTypeB},
				{AttributeName: aws.String(SortKeyAttr), AttributeType: types.ScalarAttributeTypeB},
			},
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String(PartitionKeyAttr), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String(SortKeyAttr), KeyType: types.KeyTypeRange},
			},
		})
		var inUse *types.ResourceInUseException
		if err != nil && !errors.As(err, &inUse) {
			return s.classify(ctx, "create_table", fmt.Errorf("dynamodb: creating table %q: %w", s.table, err))
		}
	case err != nil:
		return s.classify(ctx, "describe_table", fmt.Errorf("dynamodb: describing table %q: %w", s.table, err))
	}
	if desc == nil || desc.Table == nil || desc.Table.TableStatus != types.TableStatusActive {
		waiter := dynamodb.NewTableExistsWaiter(s.client, func(o *dynamodb.TableExistsWaiterOptions) {
			o.MinDelay = 200 * time.Millisecond
			o.MaxDelay = 5 * time.Second
		})
		desc, err = waiter.WaitForOutput(ctx, &dynamodb.DescribeTableInput{TableName: &s.table}, 5*time.Minute)
		if err != nil {
			return s.classify(ctx, "describe_table", fmt.Errorf("dynamodb: waiting for table %q to become active: %w", s.table, err))
		}
	}
	if err := checkKeySchema(s.table, desc.Table); err != nil {
		return err
	}
	onDemand := desc.Table.BillingModeSummary != nil && desc.Table.BillingModeSummary.BillingMode == types.BillingModePayPerRequest
	if pt := desc.Table.ProvisionedThroughput; pt != nil && !onDemand {
		s.provisionedRead = float64(aws.ToInt64(pt.ReadCapacityUnits))
		s.provisionedWrite = float64(aws.ToInt64(pt.WriteCapacityUnits))
	}
	return s.ensureTTL(ctx)
}

// ensureTTL turns on DynamoDB's TTL on ExpiresAttr, which removes expired
// tombstones at no write cost.
func (s *Store) ensureTTL(ctx context.Context) error {
	ttl, err := s.client.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: &s.table})
	if err != nil {
		return s.classify(ctx, "describe_ttl", fmt.Errorf("dynamodb: describing the TTL of table %q: %w", s.table, err))
	}
	if d := ttl.TimeToLiveDescription; d != nil && aws.ToString(d.AttributeName) == ExpiresAttr &&
		(d.TimeToLiveStatus == types.TimeToLiveStatusEnabled || d.TimeToLiveStatus == types.TimeToLiveStatusEnabling) {
		return nil
	}
	_, err = s.client.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
		TableName:               &s.table,
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String(ExpiresAttr), Enabled: aws.Bool(true)},
	})
	var invalid *smithy.GenericAPIError
	if errors.As(err, &invalid) && invalid.Code == "ValidationException" {
		return nil // another proxy enabled it meanwhile ("TimeToLive is already enabled")
	}
	if err != nil {
		return s.classify(ctx, "update_ttl", fmt.Errorf("dynamodb: enabling TTL on table %q: %w", s.table, err))
	}
	return nil
}

func checkKeySchema(table string, td *types.TableDescription) error {
	types := map[string]types.ScalarAttributeType{}
	for _, d := range td.AttributeDefinitions {
		types[aws.ToString(d.AttributeName)] = d.AttributeType
	}
	var hash, rng string
	for _, k := range td.KeySchema {
		switch k.KeyType {
		case "HASH":
			hash = aws.ToString(k.AttributeName)
		case "RANGE":
			rng = aws.ToString(k.AttributeName)
		}
	}
	if hash != PartitionKeyAttr || rng != SortKeyAttr || types[hash] != "B" || types[rng] != "B" {
		return fmt.Errorf("dynamodb: table %q has key schema (HASH %q %s, RANGE %q %s); zproxy needs (HASH %q B, RANGE %q B): use another table name",
			table, hash, types[hash], rng, types[rng], PartitionKeyAttr, SortKeyAttr)
	}
	return nil
}

// Capabilities reports DynamoDB's limits: transactions of 100 actions,
// BatchGetItem of 100 keys, a round trip per Seek, and MaxConcurrency
// ranges of a scan read at once (its iterators prefetch).
func (s *Store) Capabilities() kv.Capabilities {
	return kv.Capabilities{
		Name:           BackendName,
		MaxAtomicOps:   maxTransactItems,
		MaxGetKeys:     maxBatchGetKeys,
		CheapSeek:      false,
		RequestLatency: s.latency,
		Isolation:      kv.IsolationSnapshot,
		ReadUnitBytes:  readUnitBytes,
		WriteUnitBytes: writeUnitBytes,
		ScanFanout:     s.concurrency,
	}
}

// readUnitBytes is what one read capacity unit reads: 4 KB of item size,
// strongly consistent (twice that eventually consistent).
const readUnitBytes = 4096

// writeUnitBytes is what one write capacity unit writes: 1 KB of item
// size (twice the units in a transaction).
const writeUnitBytes = 1024

// Close marks the store closed; later calls fail with kv.ErrClosed. Every
// acknowledged write is already durable in DynamoDB.
func (s *Store) Close() error {
	s.closed.Store(true)
	return nil
}

// observe reports one request to the Observer and the statement's Stats.
func (s *Store) observe(op string, start time.Time, err error, capacity []types.ConsumedCapacity, stats *kv.Stats) {
	stats.AddRequest()
	units := 0.0
	for _, c := range capacity {
		units += aws.ToFloat64(c.CapacityUnits)
	}
	stats.AddCapacity(units)
	if s.obs != nil {
		s.obs.ObserveRequest(BackendName, op, time.Since(start), err)
		if units > 0 {
			s.obs.ObserveCapacity(op, units)
		}
	}
}

// classify wraps errors that mean "DynamoDB could not be reached or kept
// refusing" (a request that could not be sent, throttling and 5xx after the
// SDK's retries) in *kv.UnavailableError; other errors (validation, missing
// table, the caller's cancellation) are returned as they are.
func (s *Store) classify(ctx context.Context, op string, err error) error {
	if err == nil || ctx.Err() != nil {
		return err
	}
	var unavailable *kv.UnavailableError
	if errors.As(err, &unavailable) {
		return err
	}
	var maxAttempts *retry.MaxAttemptsError
	var sendErr *smithyhttp.RequestSendError
	if errors.As(err, &maxAttempts) || errors.As(err, &sendErr) ||
		retry.IsErrorRetryables(retry.DefaultRetryables).IsErrorRetryable(err) == aws.TrueTernary {
		return &kv.UnavailableError{Op: op, Err: err}
	}
	return err
}

// backoff sleeps before zproxy's own retry number attempt (1-based) of
// unprocessed items or a conflicting transaction: exponential with full
// jitter, capped by MaxBackoff.
func (s *Store) backoff(ctx context.Context, attempt int) error {
	d := 25 * time.Millisecond << min(attempt, 16)
	d = min(d, s.maxBackoff)
	d = time.Duration(rand.Int64N(int64(d)) + 1)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// parallel runs fn(0..n-1) with at most limit running at once and returns
// the first error; once one fails, the ones not yet started are skipped.
func parallel(ctx context.Context, n, limit int, fn func(ctx context.Context, i int) error) error {
	if n == 1 {
		return fn(ctx, 0)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	sem := make(chan struct{}, limit)
	errs := make(chan error, n)
	for i := range n {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			errs <- context.Cause(ctx)
			continue
		}
		go func() {
			defer func() { <-sem }()
			err := fn(ctx, i)
			if err != nil {
				cancel(err)
			}
			errs <- err
		}()
	}
	var first error
	for range n {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	if cause := context.Cause(ctx); first != nil && cause != nil && !errors.Is(cause, context.Canceled) {
		// Report the error that stopped the others, not their cancellation.
		return cause
	}
	return first
}
