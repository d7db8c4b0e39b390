package budget

// Metrics are the signals to watch for one dependency's retry budget, ready
// to export: the package depends on no metrics library, and the JSON names
// suit expvar. Like Stats, they are read field by field without locking.
type Metrics struct {
	// Requests, RetriesAllowed and RetriesRefused are the counters of
	// Stats. A rising RetriesRefused is the sign of a dependency in
	// trouble that the budget is shielding.
	Requests       uint64 `json:"requests"`
	RetriesAllowed uint64 `json:"retries_allowed"`
	RetriesRefused uint64 `json:"retries_refused"`

	// RetryRatio is the achieved retry ratio since the budget was
	// created, RetriesAllowed / Requests: at most about Ratio in a long
	// outage (plus Cap and the floor), far below it when healthy. For
	// a ratio over a window, divide the rates of the two counters.
	RetryRatio float64 `json:"retry_ratio"`

	// Utilisation is how much of the bank is spent now, 1 − Tokens/Cap:
	// 0 with the bucket full, 1 when every banked retry is spent and
	// retries run at Ratio per request. It is 1 when Cap is 0.
	Utilisation float64 `json:"utilisation"`

	// Tokens is the credit in the bucket, as in Stats.
	Tokens float64 `json:"tokens"`

	// LatencyP99 is the p99 of the recorded attempt durations
	// (ObserveLatency), in seconds, 0 before any.
	LatencyP99 float64 `json:"latency_p99_seconds"`
}

// Metrics returns the budget's metrics. It does not lock or allocate.
func (b *Budget) Metrics() Metrics {
	s := b.Stats()
	m := Metrics{
		Requests:       s.Requests,
		RetriesAllowed: s.RetriesAllowed,
		RetriesRefused: s.RetriesRefused,
		Tokens:         s.Tokens,
		Utilisation:    1,
		LatencyP99:     b.LatencyQuantile(0.99).Seconds(),
	}
	if s.Requests > 0 {
		m.RetryRatio = float64(s.RetriesAllowed) / float64(s.Requests)
	}
	if b.cap > 0 {
		m.Utilisation = 1 - s.Tokens*unit/float64(b.cap)
	}
	return m
}

// Metrics returns the metrics of every dependency that has a budget, keyed
// by dependency, for example to publish with expvar:
//
//	expvar.Publish("retry_budgets", expvar.Func(func() any { return retries.Metrics() }))
func (r *Registry) Metrics() map[string]Metrics {
	m := make(map[string]Metrics)
	r.Each(func(dependency string, b *Budget) { m[dependency] = b.Metrics() })
	return m
}
