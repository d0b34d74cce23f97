<?php
// Smoke program of openapi-generator's php client: the shared scenario (apps/polyglot/src/smoke.ts) against a running
// sandbox server (AGGREGATION_BASE_URL, AGGREGATION_TOKEN), one line per step, exiting 1 when a step failed.
// CLIENT_DIR names the generated project (see autoload.php).
require __DIR__ . '/autoload.php';

use Aggregation\Client\ApiException;
use Aggregation\Client\Api\AccountsApi;
use Aggregation\Client\Api\PaymentsApi;
use Aggregation\Client\Api\TransactionsApi;
use Aggregation\Client\Configuration;
use Aggregation\Client\Model\CreatePayeeRequest;
use Aggregation\Client\Model\CreatePaymentRequest;
use Aggregation\Client\Model\PayeeType;
use Aggregation\Client\Model\PaymentPayeeInput;
use Aggregation\Client\Model\PaymentSchemeName;
use Aggregation\Client\ObjectSerializer;

const PAGE_SIZE = 25;
const MONEY = '/^-?\d+\.\d{2}$/';
$failed = false;

function step(string $name, callable $body): void
{
    global $failed;
    try {
        echo "step $name: ok " . $body() . "\n";
    } catch (Throwable $error) {
        $failed = true;
        echo "step $name: fail " . get_class($error) . ': ' . str_replace("\n", ' ', $error->getMessage()) . "\n";
    }
}

function check(bool $condition, string $message): void
{
    if (!$condition) {
        throw new RuntimeException($message);
    }
}

// HTTP Basic with the token as the username and an empty password.
$config = Configuration::getDefaultConfiguration()
    ->setHost(getenv('AGGREGATION_BASE_URL'))
    ->setUsername(getenv('AGGREGATION_TOKEN'))
    ->setPassword('');
$accounts = new AccountsApi(null, $config);
$transactions = new TransactionsApi(null, $config);
$payments = new PaymentsApi(null, $config);
$checking = null;

step('accounts', function () use ($accounts, &$checking) {
    $list = $accounts->listAccounts();
    foreach ($list as $account) {
        if ($account->getLinks()->getPayments()) {
            $checking = $account->getId();
        }
    }
    check($checking !== null, 'no account with payments');
    return count($list) . ' accounts';
});

step('transactions', function () use ($transactions, &$checking) {
    $seen = [];
    $pages = 0;
    $fromId = null;
    do {
        $page = $transactions->listTransactions($checking, PAGE_SIZE, $fromId);
        $pages++;
        foreach ($page as $transaction) {
            $seen[] = $transaction->getId();
        }
        $fromId = count($page) ? end($page)->getId() : null;
    } while (count($page) === PAGE_SIZE && $pages < 1000);
    $everything = array_map(fn ($transaction) => $transaction->getId(), $transactions->listTransactions($checking));
    check($everything === $seen, 'the pages differ from the full list');
    return count($seen) . " transactions in $pages pages of " . PAGE_SIZE;
});

step('balances', function () use ($accounts, &$checking) {
    $balances = $accounts->getAccountBalances($checking);
    check(preg_match(MONEY, $balances->getLedger()) && preg_match(MONEY, $balances->getAvailable()), "balances $balances");
    return "ledger {$balances->getLedger()}, available {$balances->getAvailable()}";
});

$payee = new PaymentPayeeInput(['scheme' => PaymentSchemeName::ZELLE, 'address' => 'jane.doe@example.com', 'name' => 'Jane Doe', 'type' => PayeeType::PERSON]);
$pay = function (string $memo) use ($payments, $payee, &$checking) {
    $request = new CreatePaymentRequest(['amount' => '1.00', 'memo' => $memo, 'payee' => $payee]);
    return $payments->createPaymentWithHttpInfo($checking, $request, bin2hex(random_bytes(16)));
};

step('payment_mfa', function () use ($pay) {
    [$answer, $status] = $pay('mfa');
    check($status === 200 && $answer->getConnectToken(), "$status: $answer");
    return '200 challenge with a connect_token';
});

step('payment', function () use ($pay) {
    [$answer, $status] = $pay('Lunch');
    check($status === 202 && str_starts_with((string) $answer->getId(), 'pay_') && $answer->getAmount() === '1.00', "$status: $answer");
    return "202 Payment {$answer->getId()}";
});

$createPayee = function (string $name, string $address) use ($payments, &$checking) {
    $request = new CreatePayeeRequest(['scheme' => PaymentSchemeName::ZELLE, 'address' => $address, 'name' => $name, 'type' => PayeeType::PERSON]);
    return $payments->createPayee($checking, $request);
};

step('payee_mfa', function () use ($createPayee) {
    $answer = $createPayee('mfa', 'mfa@example.com');
    check((bool) $answer->getConnectToken(), "no MFA challenge: $answer");
    return 'challenge with a connect_token';
});

step('payee', function () use ($createPayee) {
    $answer = $createPayee('Sam Lee', 'sam.lee@example.com');
    check($answer->getName() === 'Sam Lee', "no Payee: $answer");
    return "Payee {$answer->getName()}";
});

step('error', function () use ($accounts) {
    try {
        $accounts->getAccount('acc_does_not_exist');
    } catch (ApiException $error) {
        $body = $error->getResponseObject()
            ?? ObjectSerializer::deserialize(json_decode($error->getResponseBody()), '\Aggregation\Client\Model\Error');
        check($error->getCode() === 404 && $body->getError()->getCode(), "status {$error->getCode()}");
        return "404 {$body->getError()->getCode()}";
    }
    throw new RuntimeException('an unknown account was found');
});

exit($failed ? 1 : 0);
