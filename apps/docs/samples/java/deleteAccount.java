import example.aggregation.client.ApiClient;
import example.aggregation.client.api.AccountsApi;

public class DeleteAccount {
  public static void main(String[] args) throws Exception {
    ApiClient client = new ApiClient();
    client.setBasePath(System.getenv("AGGREGATION_BASE_URL"));
    // HTTP Basic: the access token as the username, an empty password.
    client.setUsername(System.getenv("AGGREGATION_TOKEN"));
    client.setPassword("");
    client.addDefaultHeader("Service-Version", "2020-10-12");
    // Removes this application's access to one account; the enrollment's other accounts stay.
    new AccountsApi(client).deleteAccount(System.getenv("ACCOUNT_ID"), null);
    System.out.println("access removed");
  }
}
