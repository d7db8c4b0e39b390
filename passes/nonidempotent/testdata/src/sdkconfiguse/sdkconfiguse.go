// Package sdkconfiguse is the SDK's service layer: each method hands its
// method and the caller's options to the request core.
package sdkconfiguse

import (
	"context"
	"net/http"

	"sdkconfig"
)

type MessageService struct {
	Options []sdkconfig.RequestOption
}

func (r *MessageService) New(ctx context.Context, opts ...sdkconfig.RequestOption) (res *string, err error) {
	opts = append(opts, sdkconfig.WithHeader("anthropic-workspace-id", "w"))
	opts = append(r.Options, opts...)
	err = sdkconfig.ExecuteNewRequest(ctx, http.MethodPost, "v1/messages", &res, opts...) // want `POST is retried`
	return
}

func (r *MessageService) Get(ctx context.Context, id string, opts ...sdkconfig.RequestOption) (res *string, err error) {
	opts = append(r.Options, opts...)
	err = sdkconfig.ExecuteNewRequest(ctx, http.MethodGet, "v1/messages/"+id, &res, opts...)
	return
}
