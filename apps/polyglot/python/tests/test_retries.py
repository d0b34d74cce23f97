"""The status classes and the retry layer, on a transport that answers as told (no server): which requests are
retried, after how long, with which Idempotency-Key, and what is raised when no response comes."""

import asyncio
import builtins
import json
import unittest

import httpx
from aggregation_client import (
    AccountClosedError,
    ApiError,
    AuthenticationError,
    BadGatewayError,
    BadRequestError,
    ConnectionError,
    ConnectionTimeoutError,
    ForbiddenError,
    GatewayTimeoutError,
    GoneError,
    IdempotencyKeyReusedError,
    InternalServerError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitedError,
    RateLimitError,
    RetryTransport,
    ServiceUnavailableError,
    UnauthorizedError,
    UnprocessableEntityError,
    ValidationError,
    call_options,
    create_client,
    status_class,
)


def error_of(status: int, code: str) -> ApiError:
    return ApiError.from_response(status, json.dumps({"error": {"code": code, "message": "m", "request_id": "req_1"}}).encode())


class StatusClasses(unittest.TestCase):
    def test_one_class_per_status(self) -> None:
        table = {
            400: BadRequestError,
            401: AuthenticationError,
            403: PermissionDeniedError,
            404: NotFoundError,
            410: GoneError,
            422: UnprocessableEntityError,
            429: RateLimitError,
            502: BadGatewayError,
            503: ServiceUnavailableError,
            504: GatewayTimeoutError,
            500: InternalServerError,
            501: InternalServerError,
        }
        for status, cls in table.items():
            with self.subTest(status):
                error = error_of(status, "some_code")
                self.assertIs(type(error), cls)
                self.assertIsInstance(error, ApiError)
                self.assertIs(status_class(status), cls)
                self.assertEqual(error.request_id, "req_1")
        self.assertIs(type(error_of(409, "conflict")), ApiError)

    def test_a_code_family_is_a_class_within_its_status(self) -> None:
        closed = error_of(410, "account.closed.user_request")
        self.assertIsInstance(closed, AccountClosedError)
        self.assertIsInstance(closed, GoneError)
        self.assertIsInstance(error_of(422, "unprocessable_entity"), ValidationError)
        self.assertIsInstance(error_of(422, "idempotency_key_reused"), UnprocessableEntityError)
        self.assertIsInstance(error_of(422, "idempotency_key_reused"), IdempotencyKeyReusedError)
        # A family sent with another status than the description's keeps the status's class.
        self.assertIs(type(error_of(500, "account.closed")), InternalServerError)

    def test_the_names_of_earlier_releases(self) -> None:
        self.assertIs(UnauthorizedError, AuthenticationError)
        self.assertIs(ForbiddenError, PermissionDeniedError)
        self.assertIs(RateLimitedError, RateLimitError)

    def test_connection_errors_are_python_s_too(self) -> None:
        self.assertTrue(issubclass(ConnectionError, builtins.ConnectionError))
        self.assertTrue(issubclass(ConnectionTimeoutError, ConnectionError))
        self.assertTrue(issubclass(ConnectionTimeoutError, builtins.TimeoutError))


class Answering:
    """A transport that answers each request with the next of ``answers`` (a status, a response, or an exception)."""

    def __init__(self, *answers: object) -> None:
        self.answers = list(answers)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        if isinstance(answer, httpx.Response):
            return answer
        return httpx.Response(int(answer), json={"error": {"code": "x", "message": "m"}} if int(answer) >= 400 else [])


def client_over(answering: Answering, waits: list[float], **options: object):
    transport = RetryTransport(sync=httpx.MockTransport(answering), sleep=waits.append, **options)  # type: ignore[arg-type]
    return create_client("test_token_abc", base_url="http://api.test", httpx_args={"transport": transport}).get_httpx_client()


class Retries(unittest.TestCase):
    def test_reads_are_retried_after_retry_after(self) -> None:
        waits: list[float] = []
        answering = Answering(httpx.Response(429, headers={"Retry-After": "3"}), 503, 200)
        response = client_over(answering, waits).get("/accounts")
        self.assertEqual(response.status_code, 200)
        self.assertEqual(len(answering.requests), 3)
        self.assertEqual(waits[0], 3.0)
        self.assertTrue(0.25 <= waits[1] <= 0.5 * 2, waits)

    def test_bounded_by_max_retries_and_call_options(self) -> None:
        waits: list[float] = []
        answering = Answering(*([503] * 10))
        http = client_over(answering, waits, max_retries=3)
        self.assertEqual(http.get("/accounts").status_code, 503)
        self.assertEqual(len(answering.requests), 4)
        with call_options(max_retries=0):
            self.assertEqual(http.get("/accounts").status_code, 503)
        self.assertEqual(len(answering.requests), 5)

    def test_a_retry_after_beyond_the_cap_is_not_waited_for(self) -> None:
        waits: list[float] = []
        answering = Answering(httpx.Response(429, headers={"Retry-After": "3600"}))
        self.assertEqual(client_over(answering, waits).get("/accounts").status_code, 429)
        self.assertEqual(waits, [])

    def test_a_payment_gets_a_key_and_keeps_it_across_retries(self) -> None:
        waits: list[float] = []
        answering = Answering(502, 202)
        response = client_over(answering, waits).post("/accounts/acc_1/payments", json={"amount": "1.00"})
        self.assertEqual(response.status_code, 202)
        keys = [request.headers.get("Idempotency-Key") for request in answering.requests]
        self.assertEqual(len(keys), 2)
        self.assertRegex(keys[0] or "", r"^[0-9a-f-]{36}$")
        self.assertEqual(keys[1], keys[0])
        self.assertEqual(answering.requests[1].content, answering.requests[0].content)

    def test_a_key_given_is_kept(self) -> None:
        answering = Answering(200)
        client_over(answering, []).post("/accounts/acc_1/payments", json={}, headers={"Idempotency-Key": "mine"})
        self.assertEqual(answering.requests[0].headers["Idempotency-Key"], "mine")

    def test_payee_creation_takes_no_key_and_is_never_retried(self) -> None:
        answering = Answering(503, 200)
        response = client_over(answering, []).post("/accounts/acc_1/payees", json={})
        self.assertEqual(response.status_code, 503)
        self.assertEqual(len(answering.requests), 1)
        self.assertNotIn("Idempotency-Key", answering.requests[0].headers)

    def test_no_response_is_retried_then_raised(self) -> None:
        waits: list[float] = []
        answering = Answering(httpx.ConnectError("refused"), httpx.ConnectError("refused"), httpx.ConnectError("refused"))
        with self.assertRaises(ConnectionError) as raised:
            client_over(answering, waits).get("/accounts")
        self.assertNotIsInstance(raised.exception, ConnectionTimeoutError)
        self.assertEqual(len(waits), 2)
        answering = Answering(httpx.ReadTimeout("slow"))
        with self.assertRaises(ConnectionTimeoutError), call_options(max_retries=0):
            client_over(answering, []).get("/accounts")

    def test_asyncio_calls_are_retried_the_same_way(self) -> None:
        answering = Answering(httpx.Response(503, headers={"Retry-After": "0"}), 202)
        transport = RetryTransport(async_=httpx.MockTransport(answering))
        client = create_client("test_token_abc", base_url="http://api.test", httpx_args={"transport": transport})

        async def pay() -> httpx.Response:
            async with client.get_async_httpx_client() as http:
                return await http.post("/accounts/acc_1/payments", json={"amount": "1.00"})

        self.assertEqual(asyncio.run(pay()).status_code, 202)
        keys = {request.headers.get("Idempotency-Key") for request in answering.requests}
        self.assertEqual(len(answering.requests), 2)
        self.assertEqual(len(keys), 1)
        self.assertIsNotNone(keys.pop())


if __name__ == "__main__":
    unittest.main()
