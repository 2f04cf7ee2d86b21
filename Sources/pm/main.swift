import PMCLI

PMMain.main()
