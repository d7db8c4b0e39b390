// Package pkglevel holds retry sites outside any function.
package pkglevel

import (
	resty "github.com/go-resty/resty/v2"
	"github.com/hashicorp/go-retryablehttp"
)

var api = resty.New().SetRetryCount(3) // want `library resty.SetRetryCount \[4 attempts\]`

var rc = retryablehttp.NewClient() // want `library retryablehttp.NewClient \[5 attempts\]`
