module example.com/rpc

go 1.26.0

require (
	connectrpc.com/connect v1.19.1
	github.com/twitchtv/twirp v8.1.3+incompatible
	google.golang.org/protobuf v1.36.12
)

require github.com/pkg/errors v0.9.1 // indirect
