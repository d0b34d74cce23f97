import example.aggregation.client.ApiClient;
import example.aggregation.client.api.AccountsApi;
import example.aggregation.client.model.AccountDetails;

public class GetAccountDetails {
  public static void main(String[] args) throws Exception {
    ApiClient client = new ApiClient();
    client.setBasePath(System.getenv("AGGREGATION_BASE_URL"));
    // HTTP Basic: the access token as the username, an empty password.
    client.setUsername(System.getenv("AGGREGATION_TOKEN"));
    client.setPassword("");
    client.addDefaultHeader("Service-Version", "2020-10-12");
    AccountDetails details = new AccountsApi(client).getAccountDetails(System.getenv("ACCOUNT_ID"), null);
    System.out.println(details.getAccountId() + " " + details.getAccountNumber() + " " + details.getRoutingNumbers());
  }
}
