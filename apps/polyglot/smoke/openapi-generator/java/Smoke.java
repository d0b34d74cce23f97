// Smoke program of openapi-generator's java client (its default library, okhttp-gson) against a running sandbox
// server (AGGREGATION_BASE_URL, AGGREGATION_TOKEN), the shared scenario of apps/polyglot/src/smoke.ts.
// Prints one line per step, `step <name>: ok <what it saw>` or `step <name>: fail <why>`, and exits non-zero when a
// step failed. Run with the source launcher on the generated client's classpath: `java -cp <classpath> Smoke.java`.
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import example.aggregation.client.ApiClient;
import example.aggregation.client.ApiException;
import example.aggregation.client.JSON;
import example.aggregation.client.api.AccountsApi;
import example.aggregation.client.api.PaymentsApi;
import example.aggregation.client.api.TransactionsApi;
import example.aggregation.client.model.Account;
import example.aggregation.client.model.CreatePayeeRequest;
import example.aggregation.client.model.CreatePaymentRequest;
import example.aggregation.client.model.PayeeType;
import example.aggregation.client.model.PaymentPayeeInput;
import example.aggregation.client.model.PaymentSchemeName;
import example.aggregation.client.model.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;

public class Smoke {
  static final int PAGE_SIZE = 25;
  static boolean failed = false;

  static void step(String name, Callable<String> body) {
    try {
      System.out.println("step " + name + ": ok " + body.call());
    } catch (Exception error) {
      failed = true;
      System.out.println(("step " + name + ": fail " + error).replace('\n', ' '));
    }
  }

  static void check(boolean condition, String message) {
    if (!condition) throw new IllegalStateException(message);
  }

  public static void main(String[] args) throws Exception {
    String baseUrl = System.getenv("AGGREGATION_BASE_URL");
    String token = System.getenv("AGGREGATION_TOKEN");
    if (baseUrl == null || token == null) throw new IllegalArgumentException("set AGGREGATION_BASE_URL and AGGREGATION_TOKEN");

    // HTTP Basic with the token as the username and an empty password.
    ApiClient client = new ApiClient();
    client.setBasePath(baseUrl);
    client.setUsername(token);
    client.setPassword("");
    AccountsApi accounts = new AccountsApi(client);
    TransactionsApi transactions = new TransactionsApi(client);
    PaymentsApi payments = new PaymentsApi(client);
    String[] checking = new String[1];

    step("accounts", () -> {
      List<Account> list = accounts.listAccounts(null);
      check(!list.isEmpty(), "no accounts");
      checking[0] = list.stream().filter(a -> a.getLinks().getPayments() != null).findFirst().orElse(list.get(0)).getId();
      return list.size() + " accounts";
    });

    step("transactions", () -> {
      List<String> seen = new ArrayList<>();
      int pages = 0;
      String fromId = null;
      while (true) {
        List<Transaction> page = transactions.listTransactions(checking[0], PAGE_SIZE, fromId, null, null, null);
        pages += 1;
        for (int i = 1; i < page.size(); i++) {
          check(!page.get(i).getDate().isAfter(page.get(i - 1).getDate()), "a page is not newest first");
        }
        page.forEach(t -> seen.add(t.getId()));
        if (page.size() < PAGE_SIZE) break;
        fromId = page.get(page.size() - 1).getId();
        check(pages < 1000, "paging does not end");
      }
      List<String> everything = new ArrayList<>();
      transactions.listTransactions(checking[0], null, null, null, null, null).forEach(t -> everything.add(t.getId()));
      check(everything.equals(seen), "the pages differ from the full list");
      return seen.size() + " transactions in " + pages + " pages of " + PAGE_SIZE;
    });

    PaymentPayeeInput payee = new PaymentPayeeInput()
        .scheme(PaymentSchemeName.ZELLE)
        .address("jane.doe@example.com")
        .name("Jane Doe")
        .type(PayeeType.PERSON);

    step("balances", () -> {
      var balances = accounts.getAccountBalances(checking[0], null);
      check(balances.getLedger().matches("-?\\d+\\.\\d{2}") && balances.getAvailable().matches("-?\\d+\\.\\d{2}"), "balances " + balances);
      return "ledger " + balances.getLedger() + ", available " + balances.getAvailable();
    });

    step("payment_mfa", () -> {
      // Read as JSON: the declared answer type differs between descriptions (the challenge alone, or one of both).
      Object answer = payments.createPayment(checking[0], new CreatePaymentRequest().amount("1.00").memo("mfa").payee(payee), null, null);
      JsonObject node = JsonParser.parseString(JSON.serialize(answer)).getAsJsonObject();
      check(node.has("connect_token"), "no connect_token in " + node);
      return "challenge with a connect_token";
    });

    step("payment", () -> {
      CreatePaymentRequest request = new CreatePaymentRequest().amount("1.00").memo("Lunch").payee(payee);
      Object answer = payments.createPayment(checking[0], request, UUID.randomUUID().toString(), null);
      JsonObject node = JsonParser.parseString(JSON.serialize(answer)).getAsJsonObject();
      check(node.has("id") && node.get("id").getAsString().startsWith("pay_"), "no Payment read from the 202: got " + node);
      check(node.has("amount") && "1.00".equals(node.get("amount").getAsString()), "amount " + node.get("amount"));
      return "202 Payment " + node.get("id").getAsString();
    });

    step("payee_mfa", () -> {
      CreatePayeeRequest request = new CreatePayeeRequest().scheme(PaymentSchemeName.ZELLE).address("mfa@example.com").name("mfa").type(PayeeType.PERSON);
      JsonObject node = JsonParser.parseString(JSON.serialize(payments.createPayee(checking[0], request, UUID.randomUUID().toString(), null))).getAsJsonObject();
      check(node.has("connect_token"), "no connect_token in " + node);
      return "challenge with a connect_token";
    });

    step("payee", () -> {
      CreatePayeeRequest request = new CreatePayeeRequest().scheme(PaymentSchemeName.ZELLE).address("sam.lee@example.com").name("Sam Lee").type(PayeeType.PERSON);
      JsonObject node = JsonParser.parseString(JSON.serialize(payments.createPayee(checking[0], request, UUID.randomUUID().toString(), null))).getAsJsonObject();
      check(node.has("name") && "Sam Lee".equals(node.get("name").getAsString()), "no Payee read: got " + node);
      return "Payee " + node.get("name").getAsString();
    });

    step("error", () -> {
      try {
        accounts.getAccount("acc_does_not_exist", null);
      } catch (ApiException error) {
        // `Error` is also java.lang.Error: name the model in full.
        example.aggregation.client.model.Error body = example.aggregation.client.model.Error.fromJson(error.getResponseBody());
        check(error.getCode() == 404 && body.getError().getCode() != null, "status " + error.getCode() + ", body " + error.getResponseBody());
        return "404 " + body.getError().getCode();
      }
      throw new IllegalStateException("an unknown account was found");
    });

    System.exit(failed ? 1 : 0);
  }
}
