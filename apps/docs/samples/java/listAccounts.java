import example.aggregation.client.ApiClient;
import example.aggregation.client.api.AccountsApi;
import example.aggregation.client.model.Account;

public class ListAccounts {
  public static void main(String[] args) throws Exception {
    ApiClient client = new ApiClient();
    client.setBasePath(System.getenv("AGGREGATION_BASE_URL"));
    // HTTP Basic: the access token as the username, an empty password.
    client.setUsername(System.getenv("AGGREGATION_TOKEN"));
    client.setPassword("");
    client.addDefaultHeader("Service-Version", "2020-10-12");
    for (Account account : new AccountsApi(client).listAccounts(null)) {
      boolean canPay = account.getLinks().getPayments() != null;
      System.out.println(account.getId() + " " + account.getName() + " " + account.getSubtype() + " " + canPay);
    }
  }
}
