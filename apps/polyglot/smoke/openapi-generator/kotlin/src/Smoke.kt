// Smoke program of openapi-generator's kotlin client (OkHttp and kotlinx.serialization, with oneOf wrappers): the
// shared scenario (apps/polyglot/src/smoke.ts) against a running sandbox server (AGGREGATION_BASE_URL,
// AGGREGATION_TOKEN), one line per step, exiting 1 when a step failed. Compiled with the client by pom.xml beside it.
import example.aggregation.kotlin.apis.AccountsApi
import example.aggregation.kotlin.apis.PaymentsApi
import example.aggregation.kotlin.apis.TransactionsApi
import example.aggregation.kotlin.infrastructure.ApiClient
import example.aggregation.kotlin.infrastructure.ClientError
import example.aggregation.kotlin.infrastructure.ClientException
import example.aggregation.kotlin.infrastructure.Serializer
import example.aggregation.kotlin.models.CreatePayeeRequest
import example.aggregation.kotlin.models.CreatePaymentRequest
import example.aggregation.kotlin.models.PayeeOrMfaChallenge
import example.aggregation.kotlin.models.PayeeType
import example.aggregation.kotlin.models.PaymentOrMfaChallenge
import example.aggregation.kotlin.models.PaymentPayeeInput
import example.aggregation.kotlin.models.PaymentSchemeName
import java.util.UUID
import kotlin.system.exitProcess
import example.aggregation.kotlin.models.Error as ErrorBody

const val PAGE_SIZE = 25
var failed = false

fun step(name: String, body: () -> String) {
    try {
        println("step $name: ok ${body()}")
    } catch (error: Exception) {
        failed = true
        println("step $name: fail $error".replace('\n', ' '))
    }
}

fun check(condition: Boolean, message: () -> String) {
    if (!condition) throw IllegalStateException(message())
}

fun main() {
    val baseUrl = System.getenv("AGGREGATION_BASE_URL") ?: error("set AGGREGATION_BASE_URL and AGGREGATION_TOKEN")
    // HTTP Basic with the token as the username and an empty password.
    ApiClient.username = System.getenv("AGGREGATION_TOKEN") ?: error("set AGGREGATION_BASE_URL and AGGREGATION_TOKEN")
    ApiClient.password = ""
    val accounts = AccountsApi(baseUrl)
    val transactions = TransactionsApi(baseUrl)
    val payments = PaymentsApi(baseUrl)
    val money = Regex("""^-?\d+\.\d{2}$""")
    var checking = ""

    step("accounts") {
        val list = accounts.listAccounts()
        checking = list.firstOrNull { it.links.payments != null }?.id ?: error("no account with payments")
        "${list.size} accounts"
    }

    step("transactions") {
        val seen = mutableListOf<String>()
        var pages = 0
        var fromId: String? = null
        while (true) {
            val page = transactions.listTransactions(checking, count = PAGE_SIZE, fromId = fromId)
            pages += 1
            check(page.zipWithNext().all { (a, b) -> !b.date.isAfter(a.date) }) { "a page is not newest first" }
            seen += page.map { it.id }
            if (page.size < PAGE_SIZE) break
            fromId = page.last().id
            check(pages < 1000) { "paging does not end" }
        }
        val everything = transactions.listTransactions(checking).map { it.id }
        check(everything == seen) { "the pages differ from the full list" }
        "${seen.size} transactions in $pages pages of $PAGE_SIZE"
    }

    step("balances") {
        val balances = accounts.getAccountBalances(checking)
        check(money.matches(balances.ledger) && money.matches(balances.available)) { "balances $balances" }
        "ledger ${balances.ledger}, available ${balances.available}"
    }

    val payee = PaymentPayeeInput(scheme = PaymentSchemeName.ZELLE, address = "jane.doe@example.com", name = "Jane Doe", type = PayeeType.PERSON)
    fun pay(memo: String) =
        payments.createPayment(checking, CreatePaymentRequest(amount = "1.00", memo = memo, payee = payee), idempotencyKey = UUID.randomUUID().toString())

    step("payment_mfa") {
        val answer = pay("mfa")
        check(answer is PaymentOrMfaChallenge.MfaChallengeValue && answer.value.connectToken.isNotEmpty()) { "no MfaChallenge read: $answer" }
        "200 challenge with a connect_token"
    }

    step("payment") {
        val payment = (pay("Lunch") as? PaymentOrMfaChallenge.PaymentValue)?.value ?: error("no Payment read")
        check(payment.id.startsWith("pay_") && payment.amount == "1.00") { "payment $payment" }
        "202 Payment ${payment.id}"
    }

    fun addPayee(name: String, address: String) =
        payments.createPayee(checking, CreatePayeeRequest(scheme = PaymentSchemeName.ZELLE, address = address, name = name, type = PayeeType.PERSON))

    step("payee_mfa") {
        val answer = addPayee("mfa", "mfa@example.com")
        check(answer is PayeeOrMfaChallenge.MfaChallengeValue && answer.value.connectToken.isNotEmpty()) { "no MfaChallenge read: $answer" }
        "challenge with a connect_token"
    }

    step("payee") {
        val payee = (addPayee("Sam Lee", "sam.lee@example.com") as? PayeeOrMfaChallenge.PayeeValue)?.value ?: error("no Payee read")
        check(payee.name == "Sam Lee") { "payee $payee" }
        "Payee ${payee.name}"
    }

    step("error") {
        try {
            accounts.getAccount("acc_does_not_exist")
            error("an unknown account was found")
        } catch (exception: ClientException) {
            val body = Serializer.kotlinxSerializationJson.decodeFromString<ErrorBody>((exception.response as ClientError<*>).body as String)
            check(exception.statusCode == 404 && body.error.code.isNotEmpty()) { "status ${exception.statusCode}, body $body" }
            "404 ${body.error.code}"
        }
    }

    exitProcess(if (failed) 1 else 0)
}
