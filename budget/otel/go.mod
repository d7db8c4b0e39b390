module github.com/retrylint/retrylint/budget/otel

go 1.21

require (
	github.com/retrylint/retrylint/budget v0.0.0-00010101000000-000000000000
	go.opentelemetry.io/otel v1.28.0
	go.opentelemetry.io/otel/metric v1.28.0
	go.opentelemetry.io/otel/sdk v1.28.0
	go.opentelemetry.io/otel/sdk/metric v1.28.0
	go.opentelemetry.io/otel/trace v1.28.0
)

require (
	github.com/go-logr/logr v1.4.2 // indirect
	github.com/go-logr/stdr v1.2.2 // indirect
	github.com/google/uuid v1.6.0 // indirect
	golang.org/x/sys v0.21.0 // indirect
)

replace github.com/retrylint/retrylint/budget => ../
