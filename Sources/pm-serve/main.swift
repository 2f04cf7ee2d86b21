import PMCLI
import PMWeb

// pm with the web board's server linked in: `pm serve` becomes this.
PMMain.webServer = WebServer.serve
PMMain.main()
