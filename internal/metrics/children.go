package metrics

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// A labelled series is looked up once per label values and kept: a vector's
// WithLabelValues checks the values are UTF-8, hashes them and looks the
// series up under the vector's lock on every call, and a key lookup made
// four such calls (two per store request, two per statement), some 2.5% of
// its CPU. The series a vector hands out stay its own (nothing deletes
// them), so the kept ones are the ones exposed.

// labelPair is the label values of one kept series.
type labelPair struct{ a, b string }

// storeOpSeries are the series of one store backend and operation. The
// error counter is not among them: it is looked up when a request fails,
// so that an operation without errors exposes no error series, as before.
type storeOpSeries struct {
	requests prometheus.Counter
	duration prometheus.Observer
}

// storeOp returns the series of backend's operation op.
func (m *Metrics) storeOp(backend, op string) *storeOpSeries {
	return kept(&m.storeOps, labelPair{backend, op}, func() *storeOpSeries {
		return &storeOpSeries{
			requests: m.StoreRequests.WithLabelValues(backend, op),
			duration: m.StoreRequestDuration.WithLabelValues(backend, op),
		}
	})
}

// queryKindSeries are the series of one statement kind and access path.
type queryKindSeries struct {
	queries  prometheus.Counter
	duration prometheus.Observer // by statement kind alone
}

// queryKind returns the series of statements of kind statement that took
// accessPath.
func (m *Metrics) queryKind(statement, accessPath string) *queryKindSeries {
	return kept(&m.queryKinds, labelPair{statement, accessPath}, func() *queryKindSeries {
		return &queryKindSeries{
			queries:  m.Queries.WithLabelValues(statement, accessPath),
			duration: m.QueryDuration.WithLabelValues(statement),
		}
	})
}

// kept returns the series kept in series under k, made by mk and kept
// the first time.
func kept[T any](series *sync.Map, k labelPair, mk func() *T) *T {
	if v, ok := series.Load(k); ok {
		return v.(*T)
	}
	v, _ := series.LoadOrStore(k, mk())
	return v.(*T)
}
