<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>SettingLabels</name>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="14"/>
        <source>Largest request body</source>
        <translation>Größter Anfragetext</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="16"/>
        <source>Public address</source>
        <translation>Öffentliche Adresse</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="18"/>
        <source>Public origins for signed agents</source>
        <translation>Öffentliche Ursprünge für signierte Agenten</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="18"/>
        <source>Allow private and loopback targets</source>
        <translation>Private und Loopback-Ziele erlauben</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="19"/>
        <source>Browser pages at once</source>
        <translation>Browserseiten gleichzeitig</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="21"/>
        <source>Waiting page requests</source>
        <translation>Wartende Seitenanfragen</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="23"/>
        <source>Pages prepared ahead</source>
        <translation>Vorbereitete Seiten</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="24"/>
        <source>Visitors&apos; share of the pages</source>
        <translation>Anteil der Besucher an den Seiten</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="26"/>
        <source>One site&apos;s share of the pages</source>
        <translation>Anteil einer Website an den Seiten</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="24"/>
        <source>Browser engine</source>
        <translation>Browser-Engine</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="26"/>
        <source>Chromium program</source>
        <translation>Chromium-Programm</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="28"/>
        <source>Polyfills for older pages</source>
        <translation>Polyfills für ältere Seiten</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="29"/>
        <source>User agent</source>
        <translation>User-Agent</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="31"/>
        <source>Navigation time limit</source>
        <translation>Zeitlimit für Navigation</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="33"/>
        <source>URLs per scrape request</source>
        <translation>URLs pro Scrape-Anfrage</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="35"/>
        <source>Accessibility tree nodes</source>
        <translation>Knoten im Barrierefreiheitsbaum</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="37"/>
        <source>SearXNG instance for search</source>
        <translation>SearXNG-Instanz für die Suche</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="39"/>
        <source>Respect robots.txt when mapping and crawling</source>
        <translation>robots.txt beim Erfassen der Links und beim Crawlen beachten</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="41"/>
        <source>Cached scrapes per key</source>
        <translation>Zwischengespeicherte Abrufe je Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="43"/>
        <source>Largest crawl status page</source>
        <translation>Größte Seite des Crawl-Status</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="37"/>
        <source>Shutdown grace time</source>
        <translation>Schonfrist beim Beenden</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="39"/>
        <source>Wait for a run before answering</source>
        <translation>Vor der Antwort auf einen Lauf warten</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="40"/>
        <source>Run time limit</source>
        <translation>Zeitlimit pro Lauf</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="41"/>
        <source>Steps per run</source>
        <translation>Schritte pro Lauf</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="43"/>
        <source>Runs at once per key</source>
        <translation>Gleichzeitige Läufe pro Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="45"/>
        <source>Pages followed when paginating</source>
        <translation>Verfolgte Seiten beim Blättern</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="47"/>
        <source>Sheet rows per workflow</source>
        <translation>Tabellenzeilen pro Workflow</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="49"/>
        <source>Page kept while waiting for input</source>
        <translation>Seite behalten, während auf Eingabe gewartet wird</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="51"/>
        <source>Largest inline answer</source>
        <translation>Größte Inline-Antwort</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="53"/>
        <source>Live view link lifetime</source>
        <translation>Gültigkeit des Live-Ansicht-Links</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="55"/>
        <source>Bridge wait before answering</source>
        <translation>Wartezeit der Bridge vor der Antwort</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="57"/>
        <source>Download link lifetime</source>
        <translation>Gültigkeit des Download-Links</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="59"/>
        <source>Longest held answer</source>
        <translation>Am längsten gehaltene Antwort</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="61"/>
        <source>Wait for input before expiry</source>
        <translation>Auf Eingabe warten bis zum Ablauf</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="63"/>
        <source>Idempotency key lifetime</source>
        <translation>Gültigkeit des Idempotenzschlüssels</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="65"/>
        <source>Runs per address (anonymous)</source>
        <translation>Läufe pro Adresse (anonym)</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="67"/>
        <source>Runs per address (identified)</source>
        <translation>Läufe pro Adresse (identifiziert)</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="69"/>
        <source>Runs per verified agent</source>
        <translation>Läufe pro verifiziertem Agenten</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="71"/>
        <source>Sensitive fields need a verified agent</source>
        <translation>Sensible Felder erfordern einen verifizierten Agenten</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="73"/>
        <source>Longest signature window</source>
        <translation>Längstes Signaturfenster</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="75"/>
        <source>Event chunk size</source>
        <translation>Größe der Ereignisstücke</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="77"/>
        <source>Session token lifetime</source>
        <translation>Gültigkeit des Sitzungstokens</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="79"/>
        <source>Largest inline checkpoint</source>
        <translation>Größter Inline-Checkpoint</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="81"/>
        <source>Telemetry events per batch</source>
        <translation>Telemetrieereignisse pro Stapel</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="83"/>
        <source>Largest telemetry event</source>
        <translation>Größtes Telemetrieereignis</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="85"/>
        <source>Block at adversarial score</source>
        <translation>Blockieren ab Angriffswert</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="87"/>
        <source>Stream ping interval</source>
        <translation>Ping-Intervall der Streams</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="89"/>
        <source>Execute visitors&apos; runs</source>
        <translation>Läufe der Besucher ausführen</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="91"/>
        <source>Largest checkpoint</source>
        <translation>Größter Checkpoint</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="93"/>
        <source>Stored bytes per visitor session</source>
        <translation>Gespeicherte Bytes pro Besuchersitzung</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="95"/>
        <source>Stored bytes per site</source>
        <translation>Gespeicherte Bytes pro Website</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="97"/>
        <source>Keep telemetry for</source>
        <translation>Telemetrie aufbewahren für</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="99"/>
        <source>Session opens per client</source>
        <translation>Sitzungsöffnungen pro Client</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="101"/>
        <source>Session opens per site</source>
        <translation>Sitzungsöffnungen pro Website</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="90"/>
        <source>LLM API address</source>
        <translation>Adresse der LLM-API</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="91"/>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="92"/>
        <source>LLM API key</source>
        <translation>Schlüssel der LLM-API</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="94"/>
        <source>Model call time limit</source>
        <translation>Zeitlimit pro Modellaufruf</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="95"/>
        <source>Model turns per run</source>
        <translation>Modellzüge pro Lauf</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="96"/>
        <source>Issuer</source>
        <translation>Aussteller</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="98"/>
        <source>Audience (client id)</source>
        <translation>Zielgruppe (Client-ID)</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="100"/>
        <source>Signing keys address</source>
        <translation>Adresse der Signaturschlüssel</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="101"/>
        <source>Owners</source>
        <translation>Eigentümer</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="103"/>
        <source>Least time between key fetches</source>
        <translation>Mindestabstand zwischen Schlüsselabrufen</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="105"/>
        <source>Open connections</source>
        <translation>Offene Verbindungen</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="107"/>
        <source>Open connections per address</source>
        <translation>Offene Verbindungen pro Adresse</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="109"/>
        <source>Trusted reverse proxies</source>
        <translation>Vertrauenswürdige Reverse-Proxys</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="111"/>
        <source>Open streams per client</source>
        <translation>Offene Streams pro Client</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="113"/>
        <source>Open streams per site</source>
        <translation>Offene Streams pro Website</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="109"/>
        <source>Header time limit</source>
        <translation>Zeitlimit für Header</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="111"/>
        <source>Body time limit</source>
        <translation>Zeitlimit für den Anfragetext</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="113"/>
        <source>Body speed that earns more time</source>
        <translation>Übertragungsrate, die mehr Zeit gewährt</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="115"/>
        <source>Scrapes at once per key</source>
        <translation>Gleichzeitige Scrapes pro Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="117"/>
        <source>URLs per run request</source>
        <translation>URLs pro Laufanfrage</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="119"/>
        <source>Files per run request</source>
        <translation>Dateien pro Laufanfrage</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="121"/>
        <source>Images per run request</source>
        <translation>Bilder pro Laufanfrage</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="123"/>
        <source>Data inputs per run request</source>
        <translation>Dateneingaben pro Laufanfrage</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="125"/>
        <source>Largest inputs per request</source>
        <translation>Größte Eingaben pro Anfrage</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="126"/>
        <source>Browser sessions per key</source>
        <translation>Browser-Sitzungen pro Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="126"/>
        <source>Browser sessions</source>
        <translation>Browser-Sitzungen</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="126"/>
        <source>MCP sessions</source>
        <translation>MCP-Sitzungen</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="128"/>
        <source>MCP sessions per credential</source>
        <translation>MCP-Sitzungen pro Zugangsdaten</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="130"/>
        <source>Largest MCP session state</source>
        <translation>Größter MCP-Sitzungszustand</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="132"/>
        <source>MCP session idle limit</source>
        <translation>Leerlauflimit einer MCP-Sitzung</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="134"/>
        <source>Expired files purge interval</source>
        <translation>Intervall zum Löschen abgelaufener Dateien</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="136"/>
        <source>Keep stored files for</source>
        <translation>Gespeicherte Dateien aufbewahren für</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="138"/>
        <source>Deliveries per webhook test</source>
        <translation>Zustellungen pro Webhook-Test</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingLabels.cpp" line="140"/>
        <source>Pending test deliveries per key</source>
        <translation>Ausstehende Testzustellungen pro Schlüssel</translation>
    </message>
</context>
<context>
    <name>ph::ui::A2wRunsDock</name>
    <message>
        <location filename="../ui/a2w/A2wRunsDock.cpp" line="395"/>
        <location filename="../ui/a2w/A2wRunsDock.cpp" line="398"/>
        <source>A2W runs</source>
        <translation>A2W-Läufe</translation>
    </message>
</context>
<context>
    <name>ph::ui::A2wRunsModel</name>
    <message>
        <location filename="../ui/a2w/A2wRunsModel.cpp" line="86"/>
        <source>%1 · declined by the visitor</source>
        <translation>%1 · vom Besucher abgelehnt</translation>
    </message>
    <message>
        <location filename="../ui/a2w/A2wRunsModel.cpp" line="89"/>
        <source>%1 · result withheld by the visitor</source>
        <translation>%1 · Ergebnis vom Besucher zurückgehalten</translation>
    </message>
    <message>
        <location filename="../ui/a2w/A2wRunsModel.cpp" line="93"/>
        <source>%1 · the visitor reviews the result</source>
        <translation>%1 · der Besucher prüft das Ergebnis</translation>
    </message>
    <message>
        <location filename="../ui/a2w/A2wRunsModel.cpp" line="80"/>
        <source>unknown agent</source>
        <translation>unbekannter Agent</translation>
    </message>
    <message>
        <location filename="../ui/a2w/A2wRunsModel.cpp" line="102"/>
        <source>Site</source>
        <translation>Site</translation>
    </message>
    <message>
        <location filename="../ui/a2w/A2wRunsModel.cpp" line="104"/>
        <source>Visiting agent</source>
        <translation>Besuchender Agent</translation>
    </message>
    <message>
        <location filename="../ui/a2w/A2wRunsModel.cpp" line="106"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location filename="../ui/a2w/A2wRunsModel.cpp" line="108"/>
        <source>Execution</source>
        <translation>Ausführung</translation>
    </message>
    <message>
        <location filename="../ui/a2w/A2wRunsModel.cpp" line="110"/>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <location filename="../ui/a2w/A2wRunsModel.cpp" line="112"/>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
</context>
<context>
    <name>ph::ui::BrowserTile</name>
    <message>
        <location filename="../ui/browserviews/BrowserTile.cpp" line="89"/>
        <source>Take over (only while the run waits for input)</source>
        <translation>Übernehmen (nur solange der Lauf auf Eingaben wartet)</translation>
    </message>
    <message>
        <location filename="../ui/browserviews/BrowserTile.cpp" line="90"/>
        <source>Click and type in this page yourself; untick to hand it back.</source>
        <translation>Klicken und tippen Sie selbst in dieser Seite; Haken entfernen, um sie zurückzugeben.</translation>
    </message>
    <message>
        <location filename="../ui/browserviews/BrowserTile.cpp" line="91"/>
        <location filename="../ui/browserviews/BrowserTile.cpp" line="107"/>
        <source>Live page of %1</source>
        <translation>Live-Seite von %1</translation>
    </message>
</context>
<context>
    <name>ph::ui::BrowserViewsDock</name>
    <message>
        <location filename="../ui/browserviews/BrowserViewsDock.cpp" line="138"/>
        <location filename="../ui/browserviews/BrowserViewsDock.cpp" line="139"/>
        <source>Live browser views</source>
        <translation>Live-Browseransichten</translation>
    </message>
    <message>
        <location filename="../ui/browserviews/BrowserViewsDock.cpp" line="140"/>
        <source>No page is leased and no browser session is open right now. Pages appear here while runs use them, sessions while they last.</source>
        <translation>Gerade ist keine Seite vergeben und keine Browsersitzung offen. Seiten erscheinen hier, solange Läufe sie nutzen, Sitzungen, solange sie bestehen.</translation>
    </message>
</context>
<context>
    <name>ph::ui::CapabilityBoxes</name>
    <message>
        <location filename="../ui/sites/CapabilityBoxes.cpp" line="53"/>
        <source>Embed in pages</source>
        <translation>In Seiten einbetten</translation>
    </message>
    <message>
        <location filename="../ui/sites/CapabilityBoxes.cpp" line="55"/>
        <source>Cloud agent</source>
        <translation>Cloud-Agent</translation>
    </message>
    <message>
        <location filename="../ui/sites/CapabilityBoxes.cpp" line="57"/>
        <source>Cloud scrape</source>
        <translation>Cloud-Scraping</translation>
    </message>
    <message>
        <location filename="../ui/sites/CapabilityBoxes.cpp" line="59"/>
        <source>External web context</source>
        <translation>Externer Webkontext</translation>
    </message>
</context>
<context>
    <name>ph::ui::ConnectKeysModel</name>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="358"/>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="362"/>
        <source>revoked %1</source>
        <translation>widerrufen am %1</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="362"/>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="374"/>
        <source>Label</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="376"/>
        <source>Prefix</source>
        <translation>Präfix</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="378"/>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="380"/>
        <source>Last used</source>
        <translation>Zuletzt verwendet</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="382"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
</context>
<context>
    <name>ph::ui::ConnectKeysPane</name>
    <message>
        <location filename="../ui/sites/ConnectKeysPane.cpp" line="48"/>
        <source>%1 of at most %2 Connect AI keys are active. Each lets an AI read this site&apos;s configuration and propose changes for your review.</source>
        <translation>%1 von höchstens %2 Connect-AI-Schlüsseln sind aktiv. Mit jedem kann eine KI die Konfiguration dieser Website lesen und Änderungen zu Ihrer Prüfung vorschlagen.</translation>
    </message>
    <message>
        <location filename="../ui/sites/ConnectKeysPane.cpp" line="59"/>
        <source>Which AI, e.g. Claude (default: Connect AI)</source>
        <translation>Welche KI, z. B. Claude (Standard: Connect AI)</translation>
    </message>
    <message>
        <location filename="../ui/sites/ConnectKeysPane.cpp" line="60"/>
        <source>Name of the new Connect AI key</source>
        <translation>Name des neuen Connect-AI-Schlüssels</translation>
    </message>
    <message>
        <location filename="../ui/sites/ConnectKeysPane.cpp" line="61"/>
        <source>Connect AI keys</source>
        <translation>Connect-AI-Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/sites/ConnectKeysPane.cpp" line="62"/>
        <source>Create Connect AI key</source>
        <translation>Connect-AI-Schlüssel erstellen</translation>
    </message>
    <message>
        <location filename="../ui/sites/ConnectKeysPane.cpp" line="63"/>
        <source>Revoke (Del)</source>
        <translation>Widerrufen (Entf)</translation>
    </message>
</context>
<context>
    <name>ph::ui::DeliveriesDock</name>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="204"/>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="348"/>
        <source>Select a delivery to see its attempts.</source>
        <translation>Wählen Sie eine Zustellung aus, um ihre Versuche anzuzeigen.</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="210"/>
        <source>&lt;b&gt;%1&lt;/b&gt; %2 to %3 — %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; %2 an %3 — %4</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="246"/>
        <source>(nothing was sent: %1)</source>
        <translation>(nichts wurde gesendet: %1)</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="248"/>
        <source>(headers of this attempt were not recorded)</source>
        <translation>(die Header dieses Versuchs wurden nicht aufgezeichnet)</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="250"/>
        <source>(no attempt yet)</source>
        <translation>(noch kein Versuch)</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="265"/>
        <source>No answer: %1</source>
        <translation>Keine Antwort: %1</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="322"/>
        <source>Webhook deliveries</source>
        <translation>Webhook-Zustellungen</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="323"/>
        <source>All deliveries</source>
        <translation>Alle Zustellungen</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="323"/>
        <source>Pending</source>
        <translation>Ausstehend</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="323"/>
        <source>Delivered</source>
        <translation>Zugestellt</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="323"/>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="326"/>
        <source>Show deliveries</source>
        <translation>Zustellungen anzeigen</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="327"/>
        <source>Deliveries</source>
        <translation>Zustellungen</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="328"/>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="329"/>
        <source>Request headers</source>
        <translation>Anfrage-Header</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="330"/>
        <source>Request body</source>
        <translation>Anfrage-Body</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="331"/>
        <source>Receiver&apos;s answer</source>
        <translation>Antwort des Empfängers</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="332"/>
        <source>Request sent</source>
        <translation>Gesendete Anfrage</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="333"/>
        <source>Answer</source>
        <translation>Antwort</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="334"/>
        <source>Redeliver</source>
        <translation>Erneut zustellen</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="335"/>
        <source>Send the selected delivery again (Ctrl+Shift+R)</source>
        <translation>Die gewählte Zustellung erneut senden (Strg+Umschalt+R)</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="336"/>
        <source>Redeliver all failed</source>
        <translation>Alle fehlgeschlagenen erneut zustellen</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="337"/>
        <source>Copy as curl</source>
        <translation>Als curl kopieren</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="339"/>
        <source>Copy the webhook request as a curl command (Ctrl+Shift+C); credential headers read [redacted]</source>
        <translation>Die Webhook-Anfrage als curl-Befehl kopieren (Strg+Umschalt+C); Header mit Zugangsdaten lauten [redacted]</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="342"/>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="342"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="342"/>
        <source>Latency</source>
        <translation>Latenz</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="342"/>
        <source>Reply</source>
        <translation>Antwort</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="342"/>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="343"/>
        <source>No webhook deliveries yet. Runs started with a &quot;webhooks&quot; list, or POST /webhooks/test, send them; each one and its attempts appear here.</source>
        <translation>Noch keine Webhook-Zustellungen. Läufe, die mit einer &quot;webhooks&quot;-Liste gestartet wurden, und POST /webhooks/test senden sie; jede erscheint hier mit ihren Versuchen.</translation>
    </message>
</context>
<context>
    <name>ph::ui::DeliveriesModel</name>
    <message>
        <location filename="../ui/deliveries/DeliveriesModel.cpp" line="72"/>
        <source>Event</source>
        <translation>Ereignis</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesModel.cpp" line="74"/>
        <source>Target</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesModel.cpp" line="76"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesModel.cpp" line="78"/>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesModel.cpp" line="80"/>
        <source>Last answer</source>
        <translation>Letzte Antwort</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesModel.cpp" line="82"/>
        <source>Next attempt</source>
        <translation>Nächster Versuch</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesModel.cpp" line="84"/>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
</context>
<context>
    <name>ph::ui::JsonEdit</name>
    <message>
        <location filename="../ui/tools/JsonEdit.cpp" line="50"/>
        <source>not valid JSON: %1 at character %2</source>
        <translation>kein gültiges JSON: %1 bei Zeichen %2</translation>
    </message>
    <message>
        <location filename="../ui/tools/JsonEdit.cpp" line="51"/>
        <source>not valid JSON: more than one value</source>
        <translation>kein gültiges JSON: mehr als ein Wert</translation>
    </message>
</context>
<context>
    <name>ph::ui::KeysDock</name>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="210"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="227"/>
        <source>Minted %1.</source>
        <translation>%1 erzeugt.</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="245"/>
        <source>%1 now has %2 credits.</source>
        <translation>%1 hat jetzt %2 Credits.</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="248"/>
        <source>%1 is now unlimited.</source>
        <translation>%1 ist jetzt unbegrenzt.</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="265"/>
        <source>Revoked %1; it now answers 401.</source>
        <translation>%1 widerrufen; Anfragen damit erhalten jetzt 401.</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="277"/>
        <source>Select a key to set its balance or revoke it.</source>
        <translation>Wählen Sie einen Schlüssel aus, um sein Guthaben festzulegen oder ihn zu widerrufen.</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="282"/>
        <source>revoked</source>
        <translation>widerrufen</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="282"/>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="306"/>
        <location filename="../ui/keys/KeysDock.cpp" line="307"/>
        <source>API keys</source>
        <translation>API-Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="308"/>
        <source>Starting balance</source>
        <translation>Anfangsguthaben</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="310"/>
        <source>New key</source>
        <translation>Neuer Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="311"/>
        <source>Label</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="312"/>
        <source>Who or what uses it</source>
        <translation>Wer oder was ihn verwendet</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="313"/>
        <source>Role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="314"/>
        <source>User (its own runs and credits)</source>
        <translation>Benutzer (eigene Läufe und Credits)</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="315"/>
        <source>Owner (everything, including this console&apos;s areas)</source>
        <translation>Eigentümer (alles, einschließlich der Bereiche dieser Konsole)</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="316"/>
        <location filename="../ui/keys/KeysDock.cpp" line="324"/>
        <source>Credits</source>
        <translation>Credits</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="317"/>
        <source>Empty: 1000 for user keys, unlimited for owners</source>
        <translation>Leer: 1000 für Benutzerschlüssel, unbegrenzt für Eigentümer</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="318"/>
        <location filename="../ui/keys/KeysDock.cpp" line="325"/>
        <source>Unlimited</source>
        <translation>Unbegrenzt</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="319"/>
        <source>Mint key</source>
        <translation>Schlüssel erzeugen</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="320"/>
        <source>The new key</source>
        <translation>Der neue Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="320"/>
        <source>Copy the key now. It is shown only this once; Pilothouse keeps only its hash.</source>
        <translation>Kopieren Sie den Schlüssel jetzt. Er wird nur dieses eine Mal angezeigt; Pilothouse speichert nur seinen Hash.</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="322"/>
        <source>Selected key</source>
        <translation>Ausgewählter Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="309"/>
        <location filename="../ui/keys/KeysDock.cpp" line="323"/>
        <source>Balance</source>
        <translation>Guthaben</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="326"/>
        <source>Set balance</source>
        <translation>Guthaben festlegen</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysDock.cpp" line="327"/>
        <source>Revoke (Del)</source>
        <translation>Widerrufen (Entf)</translation>
    </message>
</context>
<context>
    <name>ph::ui::KeysModel</name>
    <message>
        <location filename="../ui/keys/KeysModel.cpp" line="91"/>
        <source>owner</source>
        <translation>Eigentümer</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysModel.cpp" line="91"/>
        <source>user</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysModel.cpp" line="95"/>
        <source>revoked %1</source>
        <translation>widerrufen am %1</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysModel.cpp" line="95"/>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysModel.cpp" line="97"/>
        <source>unlimited</source>
        <translation>unbegrenzt</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysModel.cpp" line="117"/>
        <source>Label</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysModel.cpp" line="119"/>
        <source>Role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysModel.cpp" line="121"/>
        <source>Prefix</source>
        <translation>Präfix</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysModel.cpp" line="123"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysModel.cpp" line="125"/>
        <source>Balance</source>
        <translation>Guthaben</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysModel.cpp" line="127"/>
        <source>Credits used</source>
        <translation>Verbrauchte Credits</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysModel.cpp" line="129"/>
        <source>Billed requests</source>
        <translation>Abgerechnete Anfragen</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysModel.cpp" line="131"/>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <location filename="../ui/keys/KeysModel.cpp" line="133"/>
        <source>Last used</source>
        <translation>Zuletzt verwendet</translation>
    </message>
</context>
<context>
    <name>ph::ui::MainWindow</name>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="141"/>
        <location filename="../ui/shell/MainWindow.cpp" line="376"/>
        <source>Go to %1</source>
        <translation>Gehe zu %1</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="163"/>
        <source>About Pilothouse</source>
        <translation>Über Pilothouse</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="164"/>
        <source>&lt;b&gt;Pilothouse %1&lt;/b&gt;&lt;p&gt;A self-hosted web-automation service: an API server, a cloud browser and this console.&lt;/p&gt;</source>
        <translation>&lt;b&gt;Pilothouse %1&lt;/b&gt;&lt;p&gt;Ein selbst betriebener Dienst für Web-Automatisierung: API-Server, Cloud-Browser und diese Konsole.&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="233"/>
        <source>Close the console</source>
        <translation>Konsole schließen</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="234"/>
        <source>Keep Pilothouse serving in the system tray, or quit it? Runs in progress stop when it quits.</source>
        <translation>Soll Pilothouse im Infobereich weiterlaufen oder beendet werden? Beim Beenden werden aktive Läufe abgebrochen.</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="237"/>
        <source>Keep serving in the tray</source>
        <translation>Im Infobereich weiterlaufen</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="238"/>
        <source>Quit</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="241"/>
        <source>Do not ask again</source>
        <translation>Nicht mehr fragen</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="367"/>
        <source>Pilothouse console</source>
        <translation>Pilothouse-Konsole</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="368"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="369"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="370"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="371"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="372"/>
        <source>&amp;About Pilothouse</source>
        <translation>Ü&amp;ber Pilothouse</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="373"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="374"/>
        <source>&amp;Go to panel</source>
        <translation>&amp;Gehe zu Bereich</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="377"/>
        <source>Next panel</source>
        <translation>Nächster Bereich</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="378"/>
        <source>Previous panel</source>
        <translation>Vorheriger Bereich</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="380"/>
        <source>Pilothouse is serving at %1</source>
        <translation>Pilothouse ist unter %1 erreichbar</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="381"/>
        <source>Show the console</source>
        <translation>Konsole anzeigen</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="382"/>
        <source>Quit Pilothouse</source>
        <translation>Pilothouse beenden</translation>
    </message>
</context>
<context>
    <name>ph::ui::OverviewDock</name>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="276"/>
        <source>Overview</source>
        <translation>Übersicht</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="277"/>
        <source>Pilothouse is running</source>
        <translation>Pilothouse läuft</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="278"/>
        <source>The API listens at %1. Send your API key as &quot;Authorization: Bearer &lt;key&gt;&quot;. For example:</source>
        <translation>Die API lauscht unter %1. Senden Sie Ihren API-Schlüssel als &quot;Authorization: Bearer &lt;key&gt;&quot;. Zum Beispiel:</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="287"/>
        <location filename="../ui/overview/OverviewDock.cpp" line="288"/>
        <source>Requests</source>
        <translation>Anfragen</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="285"/>
        <source>Example request</source>
        <translation>Beispielanfrage</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="286"/>
        <source>The last hour, per minute (click a chart to open its panel)</source>
        <translation>Die letzte Stunde, pro Minute (ein Klick auf ein Diagramm öffnet sein Panel)</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="291"/>
        <source>Runs per minute</source>
        <translation>Läufe pro Minute</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="293"/>
        <source>Runs by status, per minute of their latest change. Click a status to list those runs.</source>
        <translation>Läufe nach Status, pro Minute ihrer letzten Änderung. Ein Klick auf einen Status listet diese Läufe.</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="295"/>
        <source>success</source>
        <translation>erfolgreich</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="296"/>
        <source>error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="297"/>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="298"/>
        <source>waiting for input</source>
        <translation>wartet auf Eingabe</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="299"/>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="301"/>
        <source>Browser pool</source>
        <translation>Browser-Pool</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="303"/>
        <source>Pages in use and requests waiting for one, beside the pool&apos;s size. Click to open the live browser views.</source>
        <translation>Belegte Seiten und Anfragen, die auf eine warten, neben der Größe des Pools. Ein Klick öffnet die Live-Browseransichten.</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="305"/>
        <source>in use</source>
        <translation>belegt</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="306"/>
        <source>queued</source>
        <translation>wartend</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="307"/>
        <source>size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="309"/>
        <source>Latency (s)</source>
        <translation>Latenz (s)</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="311"/>
        <source>The median and 95th percentile time of agent runs and scrapes finished each minute, in seconds. Click to open the runs.</source>
        <translation>Median und 95. Perzentil der Dauer der in jeder Minute beendeten Agent-Läufe und Scrapes, in Sekunden. Ein Klick öffnet die Läufe.</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="313"/>
        <source>run p50</source>
        <translation>Lauf p50</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="314"/>
        <source>run p95</source>
        <translation>Lauf p95</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="315"/>
        <source>scrape p50</source>
        <translation>Scrape p50</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="316"/>
        <source>scrape p95</source>
        <translation>Scrape p95</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="318"/>
        <source>Webhook deliveries</source>
        <translation>Webhook-Zustellungen</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="320"/>
        <source>Callbacks by outcome, per minute made. Click an outcome to list those deliveries.</source>
        <translation>Callbacks nach Ergebnis, pro Minute ihrer Erstellung. Ein Klick auf ein Ergebnis listet diese Zustellungen.</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="322"/>
        <source>delivered</source>
        <translation>zugestellt</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="323"/>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="324"/>
        <source>pending</source>
        <translation>ausstehend</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="326"/>
        <source>Credits used</source>
        <translation>Verbrauchte Credits</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="328"/>
        <source>Credits charged per minute. Click to open the API keys and their balances.</source>
        <translation>Pro Minute berechnete Credits. Ein Klick öffnet die API-Schlüssel und ihre Guthaben.</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="329"/>
        <source>credits</source>
        <translation>Credits</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="331"/>
        <source>A2W and runtime runs</source>
        <translation>A2W- und Runtime-Läufe</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="333"/>
        <source>Runs started per minute by visiting agents (A2W) and by site visitors (browser runtime). Click to open the A2W runs.</source>
        <translation>Pro Minute gestartete Läufe besuchender Agenten (A2W) und von Website-Besuchern (Browser-Runtime). Ein Klick öffnet die A2W-Läufe.</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="335"/>
        <source>A2W runs</source>
        <translation>A2W-Läufe</translation>
    </message>
    <message>
        <location filename="../ui/overview/OverviewDock.cpp" line="336"/>
        <source>runtime runs</source>
        <translation>Runtime-Läufe</translation>
    </message>
</context>
<context>
    <name>ph::ui::ProfilesModel</name>
    <message>
        <location filename="../ui/keys/ProfilesModel.cpp" line="83"/>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <location filename="../ui/keys/ProfilesModel.cpp" line="87"/>
        <source>in use</source>
        <translation>in Benutzung</translation>
    </message>
    <message>
        <location filename="../ui/keys/ProfilesModel.cpp" line="99"/>
        <source>Profile</source>
        <translation>Profil</translation>
    </message>
    <message>
        <location filename="../ui/keys/ProfilesModel.cpp" line="101"/>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/keys/ProfilesModel.cpp" line="103"/>
        <source>Last used</source>
        <translation>Zuletzt verwendet</translation>
    </message>
    <message>
        <location filename="../ui/keys/ProfilesModel.cpp" line="105"/>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <location filename="../ui/keys/ProfilesModel.cpp" line="107"/>
        <source>In use</source>
        <translation>In Benutzung</translation>
    </message>
</context>
<context>
    <name>ph::ui::ProfilesPanel</name>
    <message>
        <location filename="../ui/keys/ProfilesPanel.cpp" line="79"/>
        <location filename="../ui/keys/ProfilesPanel.cpp" line="85"/>
        <location filename="../ui/keys/ProfilesPanel.cpp" line="112"/>
        <source>Delete profile</source>
        <translation>Profil löschen</translation>
    </message>
    <message>
        <location filename="../ui/keys/ProfilesPanel.cpp" line="80"/>
        <source>Delete the browser profile %1 of key %2? Its cookies, local storage and other saved state are gone for good.</source>
        <translation>Das Browserprofil %1 des Schlüssels %2 löschen? Seine Cookies, sein lokaler Speicher und alles andere, was darin gespeichert ist, sind dann endgültig verloren.</translation>
    </message>
    <message>
        <location filename="../ui/keys/ProfilesPanel.cpp" line="96"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <location filename="../ui/keys/ProfilesPanel.cpp" line="100"/>
        <source>Deleted the profile %1 of %2.</source>
        <translation>Das Profil %1 von %2 wurde gelöscht.</translation>
    </message>
    <message>
        <location filename="../ui/keys/ProfilesPanel.cpp" line="106"/>
        <location filename="../ui/keys/ProfilesPanel.cpp" line="107"/>
        <source>Browser profiles</source>
        <translation>Browserprofile</translation>
    </message>
    <message>
        <location filename="../ui/keys/ProfilesPanel.cpp" line="108"/>
        <source>No browser profiles yet. A session created with a profile name keeps its cookies and storage here for the next one: POST /sessions {&quot;profile&quot;: &quot;shop&quot;}.</source>
        <translation>Noch keine Browserprofile. Eine Sitzung, die mit einem Profilnamen erstellt wird, bewahrt ihre Cookies und ihren Speicher hier für die nächste auf: POST /sessions {&quot;profile&quot;: &quot;shop&quot;}.</translation>
    </message>
    <message>
        <location filename="../ui/keys/ProfilesPanel.cpp" line="111"/>
        <source>Delete profile (Del)</source>
        <translation>Profil löschen (Entf)</translation>
    </message>
</context>
<context>
    <name>ph::ui::ProposalsDock</name>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="170"/>
        <source>Select a proposal to review it.</source>
        <translation>Wählen Sie einen Vorschlag aus, um ihn zu prüfen.</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="180"/>
        <source>%1 · proposed by %2 on %3 · %4</source>
        <translation>%1 · vorgeschlagen von %2 am %3 · %4</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="184"/>
        <source> · version %1</source>
        <translation> · Version %1</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="186"/>
        <source> · decided by %1</source>
        <translation> · entschieden von %1</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="196"/>
        <source>(decided: the right side shows the patch as proposed)</source>
        <translation>(entschieden: rechts steht der Patch wie vorgeschlagen)</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="198"/>
        <source>(no difference from the current configuration)</source>
        <translation>(kein Unterschied zur aktuellen Konfiguration)</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="202"/>
        <source>Dropped when proposed (not allowed): %1</source>
        <translation>Beim Vorschlagen verworfen (nicht erlaubt): %1</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="216"/>
        <source>Applied: the site&apos;s configuration is now version %1.</source>
        <translation>Übernommen: Die Konfiguration der Website hat jetzt Version %1.</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="220"/>
        <source>Discarded; the configuration is unchanged.</source>
        <translation>Verworfen; die Konfiguration bleibt unverändert.</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="239"/>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="241"/>
        <source>Proposals</source>
        <translation>Vorschläge</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="240"/>
        <source>Show proposals</source>
        <translation>Vorschläge anzeigen</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="242"/>
        <source>Changed paths</source>
        <translation>Geänderte Pfade</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="244"/>
        <source>Proposed configuration</source>
        <translation>Vorgeschlagene Konfiguration</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="245"/>
        <source>Note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="247"/>
        <source>No proposals here. Site agents and the configuration API (POST /config/v1/sites/{siteId}/changes) propose changes to a site&apos;s configuration; each waits here to be applied or discarded.</source>
        <translation>Hier sind keine Vorschläge. Website-Agenten und die Konfigurations-API (POST /config/v1/sites/{siteId}/changes) schlagen Änderungen an der Konfiguration einer Website vor; jeder wartet hier darauf, übernommen oder verworfen zu werden.</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="250"/>
        <source>Pending</source>
        <translation>Ausstehend</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="250"/>
        <source>Applied</source>
        <translation>Übernommen</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="250"/>
        <source>Discarded</source>
        <translation>Verworfen</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="250"/>
        <source>All proposals</source>
        <translation>Alle Vorschläge</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="243"/>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="253"/>
        <source>Current configuration</source>
        <translation>Aktuelle Konfiguration</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="254"/>
        <source>With the proposal</source>
        <translation>Mit dem Vorschlag</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="255"/>
        <source>Note or reason (optional)</source>
        <translation>Notiz oder Begründung (optional)</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="256"/>
        <source>Apply</source>
        <translation>Übernehmen</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsDock.cpp" line="257"/>
        <source>Discard</source>
        <translation>Verwerfen</translation>
    </message>
</context>
<context>
    <name>ph::ui::ProposalsModel</name>
    <message>
        <location filename="../ui/proposals/ProposalsModel.cpp" line="62"/>
        <source>Proposal</source>
        <translation>Vorschlag</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsModel.cpp" line="64"/>
        <source>Site</source>
        <translation>Website</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsModel.cpp" line="66"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsModel.cpp" line="68"/>
        <source>Proposed by</source>
        <translation>Vorgeschlagen von</translation>
    </message>
    <message>
        <location filename="../ui/proposals/ProposalsModel.cpp" line="70"/>
        <source>When</source>
        <translation>Zeitpunkt</translation>
    </message>
</context>
<context>
    <name>ph::ui::QuantityEdit</name>
    <message>
        <location filename="../ui/settings/QuantityEdit.cpp" line="179"/>
        <source>%1: unit</source>
        <translation>%1: Einheit</translation>
    </message>
</context>
<context>
    <name>ph::ui::SecretReveal</name>
    <message>
        <location filename="../ui/common/SecretReveal.cpp" line="69"/>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <location filename="../ui/common/SecretReveal.cpp" line="70"/>
        <source>Done</source>
        <translation>Fertig</translation>
    </message>
</context>
<context>
    <name>ph::ui::SessionTile</name>
    <message>
        <location filename="../ui/browserviews/SessionTile.cpp" line="103"/>
        <source>expires now</source>
        <translation>läuft jetzt ab</translation>
    </message>
    <message>
        <location filename="../ui/browserviews/SessionTile.cpp" line="111"/>
        <source>expires in %1 (at %2)</source>
        <translation>läuft in %1 ab (um %2)</translation>
    </message>
    <message>
        <location filename="../ui/browserviews/SessionTile.cpp" line="124"/>
        <source>no profile</source>
        <translation>kein Profil</translation>
    </message>
    <message>
        <location filename="../ui/browserviews/SessionTile.cpp" line="125"/>
        <source>profile %1</source>
        <translation>Profil %1</translation>
    </message>
    <message>
        <location filename="../ui/browserviews/SessionTile.cpp" line="128"/>
        <source>key %1</source>
        <translation>Schlüssel %1</translation>
    </message>
    <message>
        <location filename="../ui/browserviews/SessionTile.cpp" line="130"/>
        <source>clients connected: %1</source>
        <translation>verbundene Clients: %1</translation>
    </message>
    <message>
        <location filename="../ui/browserviews/SessionTile.cpp" line="135"/>
        <location filename="../ui/browserviews/SessionTile.cpp" line="141"/>
        <source>Release session</source>
        <translation>Sitzung beenden</translation>
    </message>
    <message>
        <location filename="../ui/browserviews/SessionTile.cpp" line="136"/>
        <source>End the browser session %1 of key %2? Its browser closes and every connected client is disconnected; its profile is kept.</source>
        <translation>Die Browsersitzung %1 des Schlüssels %2 beenden? Ihr Browser wird geschlossen und jeder verbundene Client getrennt; ihr Profil bleibt erhalten.</translation>
    </message>
    <message>
        <location filename="../ui/browserviews/SessionTile.cpp" line="152"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <location filename="../ui/browserviews/SessionTile.cpp" line="160"/>
        <source>Take over</source>
        <translation>Übernehmen</translation>
    </message>
    <message>
        <location filename="../ui/browserviews/SessionTile.cpp" line="161"/>
        <source>Click and type in this session&apos;s page yourself; its clients keep their connection. Untick to only watch again.</source>
        <translation>Selbst in die Seite dieser Sitzung klicken und tippen; ihre Clients bleiben verbunden. Den Haken entfernen, um wieder nur zuzusehen.</translation>
    </message>
    <message>
        <location filename="../ui/browserviews/SessionTile.cpp" line="163"/>
        <source>Release</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <location filename="../ui/browserviews/SessionTile.cpp" line="164"/>
        <source>End this session (its browser closes; its profile is kept).</source>
        <translation>Diese Sitzung beenden (ihr Browser wird geschlossen, ihr Profil bleibt erhalten).</translation>
    </message>
    <message>
        <location filename="../ui/browserviews/SessionTile.cpp" line="165"/>
        <source>Release session %1</source>
        <translation>Sitzung %1 beenden</translation>
    </message>
    <message>
        <location filename="../ui/browserviews/SessionTile.cpp" line="166"/>
        <source>Take over session %1</source>
        <translation>Sitzung %1 übernehmen</translation>
    </message>
    <message>
        <location filename="../ui/browserviews/SessionTile.cpp" line="167"/>
        <source>Live page of session %1</source>
        <translation>Live-Seite der Sitzung %1</translation>
    </message>
</context>
<context>
    <name>ph::ui::SettingsDock</name>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="405"/>
        <source>Stored; --set %1 given at start wins until the next start.</source>
        <translation>Gespeichert; bis zum nächsten Start gilt weiterhin das beim Start angegebene --set %1.</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="371"/>
        <location filename="../ui/settings/SettingsDock.cpp" line="411"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/settings/SettingsDock.cpp" line="419"/>
        <source>%n setting(s) not stored; see the reasons under them.</source>
        <translation>
            <numerusform>%n Einstellung nicht gespeichert; den Grund finden Sie darunter.</numerusform>
            <numerusform>%n Einstellungen nicht gespeichert; die Gründe finden Sie jeweils darunter.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/settings/SettingsDock.cpp" line="421"/>
        <source>%n setting(s) stored.</source>
        <translation>
            <numerusform>%n Einstellung gespeichert.</numerusform>
            <numerusform>%n Einstellungen gespeichert.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="423"/>
        <source>Nothing changed.</source>
        <translation>Keine Änderungen.</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="442"/>
        <source>HTTP</source>
        <translation>HTTP</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="444"/>
        <source>Network</source>
        <translation>Netzwerk</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="446"/>
        <source>Browser pool</source>
        <translation>Browser-Pool</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="448"/>
        <source>Browser engine</source>
        <translation>Browser-Engine</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="450"/>
        <source>Scraping</source>
        <translation>Scraping</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="452"/>
        <source>Shutdown</source>
        <translation>Herunterfahren</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="454"/>
        <source>Agent runs</source>
        <translation>Agent-Läufe</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="456"/>
        <source>Browser bridge</source>
        <translation>Browser-Bridge</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="458"/>
        <source>Stored files</source>
        <translation>Gespeicherte Dateien</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="460"/>
        <source>LLM planner</source>
        <translation>LLM-Planer</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="462"/>
        <source>Owner sign-in (OpenID Connect)</source>
        <translation>Eigentümer-Anmeldung (OpenID Connect)</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="481"/>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="483"/>
        <source>All settings</source>
        <translation>Alle Einstellungen</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="484"/>
        <source>Service</source>
        <translation>Dienst</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="485"/>
        <source>API address</source>
        <translation>API-Adresse</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="486"/>
        <source>Chosen at start with --bind and --port.</source>
        <translation>Wird beim Start mit --bind und --port festgelegt.</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="487"/>
        <source>Data directory</source>
        <translation>Datenverzeichnis</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="488"/>
        <source>Chosen at start with --data-dir.</source>
        <translation>Wird beim Start mit --data-dir festgelegt.</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="489"/>
        <source>Console language</source>
        <translation>Sprache der Konsole</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="530"/>
        <source>(%1 to %2, default %3)</source>
        <translation>(%1 bis %2, Standard: %3)</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="536"/>
        <source>Type a new value to replace it</source>
        <translation>Neuen Wert eingeben, um den bisherigen zu ersetzen</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="537"/>
        <source>Clear</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="542"/>
        <source>On</source>
        <translation>Ein</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="547"/>
        <source>Apply</source>
        <translation>Übernehmen</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="548"/>
        <source>Revert</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="492"/>
        <source>Search settings by name or key</source>
        <translation>Einstellungen nach Name oder Schlüssel suchen</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="493"/>
        <source>Search settings</source>
        <translation>Einstellungen suchen</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="513"/>
        <source>https://… (empty: none)</source>
        <translation>https://… (leer: keine)</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="516"/>
        <source>Needs a restart</source>
        <translation>Erfordert Neustart</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="517"/>
        <source>Stored at once; takes effect at the next start.</source>
        <translation>Sofort gespeichert; wirkt ab dem nächsten Start.</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="519"/>
        <source>For new sessions</source>
        <translation>Für neue Sitzungen</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="520"/>
        <source>Takes effect for what is handed out from now on; tokens, links and streams given before keep the old value.</source>
        <translation>Wirkt für alles, was ab jetzt ausgegeben wird; zuvor ausgegebene Tokens, Links und Streams behalten den alten Wert.</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsDock.cpp" line="544"/>
        <source>Clear %1</source>
        <translation>%1 löschen</translation>
    </message>
</context>
<context>
    <name>ph::ui::SettingsModel</name>
    <message>
        <location filename="../ui/settings/SettingsModel.cpp" line="40"/>
        <source>set</source>
        <translation>gesetzt</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsModel.cpp" line="40"/>
        <source>not set</source>
        <translation>nicht gesetzt</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsModel.cpp" line="43"/>
        <source>on</source>
        <translation>ein</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsModel.cpp" line="43"/>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsModel.cpp" line="84"/>
        <source>%1 to %2</source>
        <translation>%1 bis %2</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsModel.cpp" line="99"/>
        <source>Setting</source>
        <translation>Einstellung</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsModel.cpp" line="101"/>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsModel.cpp" line="103"/>
        <source>Default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsModel.cpp" line="105"/>
        <source>Range</source>
        <translation>Bereich</translation>
    </message>
    <message>
        <location filename="../ui/settings/SettingsModel.cpp" line="107"/>
        <source>What it does</source>
        <translation>Beschreibung</translation>
    </message>
</context>
<context>
    <name>ph::ui::ShortcutsDialog</name>
    <message>
        <location filename="../ui/shell/ShortcutsDialog.cpp" line="18"/>
        <location filename="../ui/shell/ShortcutsDialog.cpp" line="21"/>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <location filename="../ui/shell/ShortcutsDialog.cpp" line="22"/>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <location filename="../ui/shell/ShortcutsDialog.cpp" line="22"/>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
    <message>
        <location filename="../ui/shell/ShortcutsDialog.cpp" line="22"/>
        <source>Where</source>
        <translation>Wo</translation>
    </message>
    <message>
        <location filename="../ui/shell/ShortcutsDialog.cpp" line="31"/>
        <source>Everywhere</source>
        <translation>Überall</translation>
    </message>
    <message>
        <location filename="../ui/shell/ShortcutsDialog.cpp" line="75"/>
        <source>Reload the list</source>
        <translation>Die Liste neu laden</translation>
    </message>
    <message>
        <location filename="../ui/shell/ShortcutsDialog.cpp" line="77"/>
        <source>Search the list</source>
        <translation>Die Liste durchsuchen</translation>
    </message>
    <message>
        <location filename="../ui/shell/ShortcutsDialog.cpp" line="79"/>
        <source>Save the form</source>
        <translation>Das Formular speichern</translation>
    </message>
    <message>
        <location filename="../ui/shell/ShortcutsDialog.cpp" line="81"/>
        <source>Cancel, revoke or delete the selected row</source>
        <translation>Die gewählte Zeile abbrechen, widerrufen oder löschen</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="168"/>
        <source>Copy the run&apos;s request as curl</source>
        <translation>Die Anfrage des Laufs als curl kopieren</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="125"/>
        <source>Copy the delivery as curl</source>
        <translation>Die Zustellung als curl kopieren</translation>
    </message>
    <message>
        <location filename="../ui/deliveries/DeliveriesDock.cpp" line="132"/>
        <source>Redeliver the selected delivery</source>
        <translation>Die gewählte Zustellung erneut zustellen</translation>
    </message>
</context>
<context>
    <name>ph::ui::SiteConfigEditor</name>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="132"/>
        <source>cleared (null); the runtime defaults apply</source>
        <translation>geleert (null); es gelten die Standardwerte der Laufzeit</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="138"/>
        <source>removed; default applies</source>
        <translation>entfernt; es gilt der Standardwert</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="154"/>
        <source>Greeting text</source>
        <translation>Begrüßungstext</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="159"/>
        <source>Shown after</source>
        <translation>Angezeigt nach</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="165"/>
        <source>Shown for</source>
        <translation>Angezeigt für</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="167"/>
        <source>Greeting off</source>
        <translation>Begrüßung aus</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="168"/>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="810"/>
        <source>AI access</source>
        <translation>KI-Zugang</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="173"/>
        <source>Browser deep links</source>
        <translation>Browser-Deep-Links</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="174"/>
        <source>Cloud browser</source>
        <translation>Cloud-Browser</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="179"/>
        <source>Delegated handoffs</source>
        <translation>Delegierte Übergaben</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="184"/>
        <source>Confirmation</source>
        <translation>Bestätigung</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="189"/>
        <source>Other hosts</source>
        <translation>Andere Hosts</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="190"/>
        <source>Most hops</source>
        <translation>Höchstens Sprünge</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="191"/>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="812"/>
        <source>Agent discovery</source>
        <translation>Agentenerkennung</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="196"/>
        <source>Preferred execution</source>
        <translation>Bevorzugte Ausführung</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="197"/>
        <source>Offer the prompt</source>
        <translation>Prompt anbieten</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="202"/>
        <source>Offer the shortcuts</source>
        <translation>Shortcuts anbieten</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="207"/>
        <source>Offer the playbooks</source>
        <translation>Playbooks anbieten</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="208"/>
        <source>Site manifest URL</source>
        <translation>URL des Website-Manifests</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="209"/>
        <source>Agent card URL</source>
        <translation>URL der Agentenkarte</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="214"/>
        <source>Surface</source>
        <translation>Oberfläche</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="219"/>
        <source>Branding</source>
        <translation>Markenauftritt</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="224"/>
        <source>Show actions</source>
        <translation>Aktionen zeigen</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="229"/>
        <source>Beacon label</source>
        <translation>Beschriftung des Beacons</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="234"/>
        <source>No automatic scrolling</source>
        <translation>Kein automatisches Scrollen</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="239"/>
        <source>Longest settle wait</source>
        <translation>Längste Wartezeit bis zur Ruhe</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="241"/>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="816"/>
        <source>Voice</source>
        <translation>Sprache (Stimme)</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="242"/>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="247"/>
        <source>Stop listening after</source>
        <translation>Zuhören beenden nach</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="596"/>
        <source>The JSON does not read: %1 at character %2.</source>
        <translation>Das JSON ist nicht lesbar: %1 bei Zeichen %2.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="599"/>
        <source>siteConfig must be a JSON object.</source>
        <translation>siteConfig muss ein JSON-Objekt sein.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="624"/>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="839"/>
        <source>%1 (cleared)</source>
        <translation>%1 (geleert)</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="709"/>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="794"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="765"/>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="905"/>
        <source>Save the site configuration</source>
        <translation>Website-Konfiguration speichern</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="768"/>
        <source>These changes are stored as version %1:</source>
        <translation>Diese Änderungen werden als Version %1 gespeichert:</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="773"/>
        <source>Changes to save</source>
        <translation>Zu speichernde Änderungen</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="778"/>
        <source>Save the changes</source>
        <translation>Änderungen speichern</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="779"/>
        <source>Keep editing</source>
        <translation>Weiter bearbeiten</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="790"/>
        <source>Saved the site configuration as version %1.</source>
        <translation>Website-Konfiguration als Version %1 gespeichert.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="804"/>
        <source>Greeting</source>
        <translation>Begrüßung</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="806"/>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="866"/>
        <source>Shortcuts</source>
        <translation>Shortcuts</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="808"/>
        <source>Knowledge</source>
        <translation>Wissen</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="814"/>
        <source>Page config</source>
        <translation>Seitenkonfiguration</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="831"/>
        <source>Select a site to edit its configuration.</source>
        <translation>Wählen Sie eine Website, um ihre Konfiguration zu bearbeiten.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="832"/>
        <source>Configuration version %1 of %2. Empty fields and &quot;default&quot; use the runtime defaults shown on the right.</source>
        <translation>Konfiguration Version %1 von %2. Leere Felder und „Standard“ verwenden die rechts gezeigten Standardwerte der Laufzeit.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="841"/>
        <source>%1 is set to null: Save clears it, and the runtime defaults apply. Press Clear again to keep it.</source>
        <translation>%1 ist auf null gesetzt: Speichern leert den Abschnitt, dann gelten die Standardwerte der Laufzeit. Drücken Sie erneut auf Leeren, um ihn zu behalten.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="846"/>
        <source>Clear (use runtime defaults)</source>
        <translation>Leeren (Standardwerte der Laufzeit)</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="847"/>
        <source>Clear %1</source>
        <translation>%1 leeren</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="851"/>
        <source>Sets %1 to null: on Save it is removed and the runtime defaults apply.</source>
        <translation>Setzt %1 auf null: Beim Speichern wird der Abschnitt entfernt, dann gelten die Standardwerte der Laufzeit.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="855"/>
        <source>Add shortcut</source>
        <translation>Shortcut hinzufügen</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="856"/>
        <source>Add entry</source>
        <translation>Eintrag hinzufügen</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="860"/>
        <source>Remove selected</source>
        <translation>Auswahl entfernen</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="862"/>
        <source>Remove the selected shortcut</source>
        <translation>Ausgewählten Shortcut entfernen</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="863"/>
        <source>Remove the selected knowledge entry</source>
        <translation>Ausgewählten Wissenseintrag entfernen</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="867"/>
        <source>Knowledge entries</source>
        <translation>Wissenseinträge</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="876"/>
        <source>none</source>
        <translation>keiner</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="877"/>
        <source>on</source>
        <translation>an</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="877"/>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="882"/>
        <source>https://… (default: %1)</source>
        <translation>https://… (Standard: %1)</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="883"/>
        <source>Default: %1</source>
        <translation>Standard: %1</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="885"/>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="887"/>
        <source>Default (%1)</source>
        <translation>Standard (%1)</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="889"/>
        <source>On</source>
        <translation>An</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="890"/>
        <source>Off</source>
        <translation>Aus</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="894"/>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="895"/>
        <source>Configuration sections</source>
        <translation>Konfigurationsabschnitte</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="896"/>
        <source>The whole configuration as it will be stored. null clears a section; businessType, experience and analytics are edited here. Checked as you type, as POST /upsertSiteConfig checks it.</source>
        <translation>Die ganze Konfiguration, wie sie gespeichert wird. null leert einen Abschnitt; businessType, experience und analytics werden hier bearbeitet. Wird beim Tippen geprüft, wie POST /upsertSiteConfig sie prüft.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="899"/>
        <source>Site configuration as JSON</source>
        <translation>Website-Konfiguration als JSON</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="900"/>
        <source>&amp;Effective configuration (what the runtime serves: these fields over the runtime defaults; read-only)</source>
        <translation>&amp;Wirksame Konfiguration (was die Laufzeit ausliefert: diese Felder über den Standardwerten der Laufzeit; schreibgeschützt)</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="902"/>
        <source>Effective configuration</source>
        <translation>Wirksame Konfiguration</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="903"/>
        <source>Configuration error</source>
        <translation>Konfigurationsfehler</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="904"/>
        <source>Save… (Ctrl+S)</source>
        <translation>Speichern… (Strg+S)</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="906"/>
        <source>Revert</source>
        <translation>Zurücksetzen</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteConfigEditor.cpp" line="907"/>
        <source>Revert the site configuration</source>
        <translation>Website-Konfiguration zurücksetzen</translation>
    </message>
</context>
<context>
    <name>ph::ui::SiteKeyMintForm</name>
    <message>
        <location filename="../ui/sites/SiteKeyMintForm.cpp" line="93"/>
        <source>New site key</source>
        <translation>Neuer Website-Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyMintForm.cpp" line="94"/>
        <source>Site</source>
        <translation>Website</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyMintForm.cpp" line="95"/>
        <source>An existing site, or a new name</source>
        <translation>Eine vorhandene Website oder ein neuer Name</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyMintForm.cpp" line="96"/>
        <source>Label</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyMintForm.cpp" line="97"/>
        <source>Where the key is used, e.g. production embed</source>
        <translation>Wo der Schlüssel verwendet wird, z. B. Einbettung in Produktion</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyMintForm.cpp" line="98"/>
        <source>Allowed domains</source>
        <translation>Erlaubte Domains</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyMintForm.cpp" line="99"/>
        <source>example.com, *.example.com, =shop.example.com</source>
        <translation>example.com, *.example.com, =shop.example.com</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyMintForm.cpp" line="100"/>
        <source>Environment</source>
        <translation>Umgebung</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyMintForm.cpp" line="101"/>
        <source>Production</source>
        <translation>Produktion</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyMintForm.cpp" line="102"/>
        <source>Development</source>
        <translation>Entwicklung</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyMintForm.cpp" line="103"/>
        <source>Test</source>
        <translation>Test</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyMintForm.cpp" line="104"/>
        <source>Expires after</source>
        <translation>Läuft ab nach</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyMintForm.cpp" line="105"/>
        <source>Never</source>
        <translation>Nie</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyMintForm.cpp" line="106"/>
        <source> days</source>
        <translation> Tagen</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyMintForm.cpp" line="107"/>
        <source>Capabilities</source>
        <translation>Fähigkeiten</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyMintForm.cpp" line="109"/>
        <source>Mint site key</source>
        <translation>Website-Schlüssel erzeugen</translation>
    </message>
</context>
<context>
    <name>ph::ui::SiteKeyPolicyForm</name>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="152"/>
        <source>Select a site key to edit, rotate or deactivate it.</source>
        <translation>Wählen Sie einen Website-Schlüssel aus, um ihn zu bearbeiten, zu erneuern oder zu deaktivieren.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="158"/>
        <source>deactivated</source>
        <translation>deaktiviert</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="159"/>
        <source>expired</source>
        <translation>abgelaufen</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="160"/>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="168"/>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="224"/>
        <source>Deactivate (Del)</source>
        <translation>Deaktivieren (Entf)</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="168"/>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="224"/>
        <source>Activate</source>
        <translation>Aktivieren</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="196"/>
        <source>Selected site key</source>
        <translation>Ausgewählter Website-Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="197"/>
        <source>Allowed domains</source>
        <translation>Erlaubte Domains</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="198"/>
        <source>At least one domain</source>
        <translation>Mindestens eine Domain</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="199"/>
        <source>Capabilities</source>
        <translation>Fähigkeiten</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="201"/>
        <source>Site mode</source>
        <translation>Website-Modus</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="202"/>
        <source>Live</source>
        <translation>Live</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="203"/>
        <source>Test</source>
        <translation>Test</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="204"/>
        <source>Paused</source>
        <translation>Pausiert</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="205"/>
        <source>Domain scope</source>
        <translation>Domain-Geltungsbereich</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="206"/>
        <source>Registrable domain (with its subdomains)</source>
        <translation>Registrierbare Domain (mit ihren Subdomains)</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="207"/>
        <source>Exact host</source>
        <translation>Exakter Host</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="208"/>
        <source>Cloud sandbox (the site&apos;s agent may run in a cloud browser)</source>
        <translation>Cloud-Sandbox (der Agent der Website darf in einem Cloud-Browser laufen)</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="209"/>
        <source>External sites allowed</source>
        <translation>Erlaubte externe Websites</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="210"/>
        <source>Other domains the embedded agent may open</source>
        <translation>Andere Domains, die der eingebettete Agent öffnen darf</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="211"/>
        <source>External sites denied</source>
        <translation>Verbotene externe Websites</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="212"/>
        <source>Domains it must never open</source>
        <translation>Domains, die er nie öffnen darf</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="213"/>
        <source>Mascot</source>
        <translation>Maskottchen</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="214"/>
        <source>Shown</source>
        <translation>Angezeigt</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="215"/>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="216"/>
        <source>Avatar URL (https://…)</source>
        <translation>Avatar-URL (https://…)</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="217"/>
        <source>Friendly</source>
        <translation>Freundlich</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="218"/>
        <source>Minimal</source>
        <translation>Minimal</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="219"/>
        <source>Professional</source>
        <translation>Professionell</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="220"/>
        <source>Shortcuts at most</source>
        <translation>Höchstens Shortcuts</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="221"/>
        <source>visible at once</source>
        <translation>davon gleichzeitig sichtbar</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="222"/>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <location filename="../ui/sites/SiteKeyPolicyForm.cpp" line="223"/>
        <source>Rotate</source>
        <translation>Erneuern</translation>
    </message>
</context>
<context>
    <name>ph::ui::SiteKeysModel</name>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="221"/>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="225"/>
        <source>paused</source>
        <translation>pausiert</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="226"/>
        <source>test mode</source>
        <translation>Testmodus</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="227"/>
        <source>live</source>
        <translation>live</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="229"/>
        <source>%1 · exact hosts</source>
        <translation>%1 · exakte Hosts</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="230"/>
        <source>%1 · registrable domains</source>
        <translation>%1 · registrierbare Domains</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="232"/>
        <source> · cloud sandbox</source>
        <translation> · Cloud-Sandbox</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="237"/>
        <source> · mascot</source>
        <translation> · Maskottchen</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="242"/>
        <source>deactivated</source>
        <translation>deaktiviert</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="244"/>
        <source>expired %1</source>
        <translation>abgelaufen am %1</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="245"/>
        <source>active until %1</source>
        <translation>aktiv bis %1</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="245"/>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="263"/>
        <source>Label</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="265"/>
        <source>Public key</source>
        <translation>Öffentlicher Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="267"/>
        <source>Environment</source>
        <translation>Umgebung</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="269"/>
        <source>Allowed domains</source>
        <translation>Erlaubte Domains</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="271"/>
        <source>Capabilities</source>
        <translation>Fähigkeiten</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="273"/>
        <source>Policy</source>
        <translation>Richtlinie</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="275"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="277"/>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="279"/>
        <source>Rotated</source>
        <translation>Erneuert</translation>
    </message>
</context>
<context>
    <name>ph::ui::SitesDock</name>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="1"/>
        <source>Visitors&apos; work reaches no private host beside the site&apos;s own.</source>
        <translation>Die Arbeit von Besuchern erreicht keinen privaten Host außer dem Ursprung der Website.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="1"/>
        <source>Visitors&apos; work may now reach %1 beside the site&apos;s own origin.</source>
        <translation>Die Arbeit von Besuchern darf jetzt außer dem Ursprung der Website auch %1 erreichen.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="1"/>
        <source>&amp;Private hosts visitors may reach (host or host:port, comma separated; empty: only the site&apos;s own hosts on port 80/443; list a site served on another port):</source>
        <translation>&amp;Private Hosts, die Besucher erreichen dürfen (Host oder Host:Port, durch Kommas getrennt; leer: nur die Hosts der Website auf Port 80/443; eine Website auf einem anderen Port hier eintragen):</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="1"/>
        <source>e.g. inventory.lan:8080, 10.0.0.12</source>
        <translation>z. B. inventory.lan:8080, 10.0.0.12</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="1"/>
        <source>Private hosts visitors may reach</source>
        <translation>Private Hosts, die Besucher erreichen dürfen</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="1"/>
        <source>Save hosts</source>
        <translation>Hosts speichern</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="109"/>
        <source>Copied the install snippet: paste it into the site&apos;s pages.</source>
        <translation>Einbau-Code kopiert: fügen Sie ihn in die Seiten der Website ein.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="262"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="276"/>
        <source>Created the site %1 with the site key %2.</source>
        <translation>Website %1 mit dem Website-Schlüssel %2 erstellt.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="277"/>
        <source>Minted the site key %2 for %1.</source>
        <translation>Website-Schlüssel %2 für %1 erzeugt.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="293"/>
        <source>Saved the allowed domains, capabilities and policy of %1.</source>
        <translation>Erlaubte Domains, Fähigkeiten und Richtlinie von %1 gespeichert.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="310"/>
        <source>Rotated %1: its new public key is shown; the previous one no longer works.</source>
        <translation>%1 erneuert: Der neue öffentliche Schlüssel wird angezeigt; der bisherige funktioniert nicht mehr.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="327"/>
        <source>Activated %1.</source>
        <translation>%1 aktiviert.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="328"/>
        <source>Deactivated %1; pages that use it stop working.</source>
        <translation>%1 deaktiviert; Seiten, die ihn verwenden, funktionieren nicht mehr.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="348"/>
        <location filename="../ui/sites/SitesDock.cpp" line="358"/>
        <source>Delete site</source>
        <translation>Website löschen</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="349"/>
        <source>Delete the site %1? Its site keys (%2), Connect AI keys (%3), configuration and proposals are removed, and pages that use its keys stop working. Its analytics history is kept. This cannot be undone.</source>
        <translation>Die Website %1 löschen? Ihre Website-Schlüssel (%2), Connect-AI-Schlüssel (%3), Konfiguration und Vorschläge werden entfernt, und Seiten, die ihre Schlüssel verwenden, funktionieren nicht mehr. Ihr Analyseverlauf bleibt erhalten. Dies kann nicht rückgängig gemacht werden.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="368"/>
        <source>Deleted the site %1.</source>
        <translation>Website %1 gelöscht.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="389"/>
        <source>Created the Connect AI key %1.</source>
        <translation>Connect-AI-Schlüssel %1 erstellt.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="407"/>
        <source>Revoked %1; it now answers 401.</source>
        <translation>%1 widerrufen; Anfragen damit erhalten jetzt 401.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="431"/>
        <source>Select a site to see its site keys and Connect AI keys.</source>
        <translation>Wählen Sie eine Website aus, um ihre Website-Schlüssel und Connect-AI-Schlüssel anzuzeigen.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="461"/>
        <source>The new Connect AI key</source>
        <translation>Der neue Connect-AI-Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="462"/>
        <source>Copy the key now and give it to your AI as a bearer key. It is shown only this once; Pilothouse keeps only its hash.</source>
        <translation>Kopieren Sie den Schlüssel jetzt und geben Sie ihn Ihrer KI als Bearer-Schlüssel. Er wird nur dieses eine Mal angezeigt; Pilothouse speichert nur seinen Hash.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="465"/>
        <source>The new public site key</source>
        <translation>Der neue öffentliche Website-Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="466"/>
        <source>Place this key in your pages&apos; embed code. It is public; the list shows it shortened.</source>
        <translation>Fügen Sie diesen Schlüssel in den Einbettungscode Ihrer Seiten ein. Er ist öffentlich; die Liste zeigt ihn gekürzt.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="480"/>
        <location filename="../ui/sites/SitesDock.cpp" line="481"/>
        <source>Sites</source>
        <translation>Websites</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="483"/>
        <source>Site detail</source>
        <translation>Details der Website</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="484"/>
        <source>Selected site key</source>
        <translation>Gewählter Website-Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="485"/>
        <source>Delete site… (Del)</source>
        <translation>Website löschen… (Entf)</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="482"/>
        <location filename="../ui/sites/SitesDock.cpp" line="486"/>
        <source>Site keys</source>
        <translation>Website-Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="487"/>
        <source>Connect AI</source>
        <translation>Connect AI</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="493"/>
        <source>&amp;Install snippet (one line for the site&apos;s pages):</source>
        <translation>&amp;Einbau-Code (eine Zeile für die Seiten der Website):</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="494"/>
        <source>Install snippet</source>
        <translation>Einbau-Code</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="495"/>
        <source>Select a site key to see its install snippet.</source>
        <translation>Wählen Sie einen Website-Schlüssel, um seinen Einbau-Code zu sehen.</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="496"/>
        <source>Copy snippet</source>
        <translation>Code kopieren</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesDock.cpp" line="488"/>
        <source>Configuration</source>
        <translation>Konfiguration</translation>
    </message>
</context>
<context>
    <name>ph::ui::SitesModel</name>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="113"/>
        <source>%1 of %2 usable</source>
        <translation>%1 von %2 nutzbar</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="115"/>
        <source>%1 of %2 active</source>
        <translation>%1 von %2 aktiv</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="119"/>
        <source>defaults</source>
        <translation>Standardwerte</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="136"/>
        <source>Site</source>
        <translation>Website</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="138"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="140"/>
        <source>Site keys</source>
        <translation>Website-Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="142"/>
        <source>Connect AI keys</source>
        <translation>Connect-AI-Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="144"/>
        <source>Configuration</source>
        <translation>Konfiguration</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="146"/>
        <source>Proposals</source>
        <translation>Vorschläge</translation>
    </message>
    <message>
        <location filename="../ui/sites/SitesModel.cpp" line="148"/>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
</context>
<context>
    <name>ph::ui::StatusBar</name>
    <message>
        <location filename="../ui/shell/StatusBar.cpp" line="54"/>
        <source>API: %1</source>
        <translation>API: %1</translation>
    </message>
    <message>
        <location filename="../ui/shell/StatusBar.cpp" line="55"/>
        <source>Copy API key</source>
        <translation>API-Schlüssel kopieren</translation>
    </message>
    <message>
        <location filename="../ui/shell/StatusBar.cpp" line="57"/>
        <source>Mint a new owner API key and copy it to the clipboard</source>
        <translation>Einen neuen Eigentümer-API-Schlüssel erzeugen und in die Zwischenablage kopieren</translation>
    </message>
    <message>
        <location filename="../ui/shell/StatusBar.cpp" line="58"/>
        <source>Copy this session&apos;s API key to the clipboard</source>
        <translation>Den API-Schlüssel dieser Sitzung in die Zwischenablage kopieren</translation>
    </message>
    <message>
        <location filename="../ui/shell/StatusBar.cpp" line="66"/>
        <source>Browser pool: %1 of %2 busy, %3 waiting</source>
        <translation>Browser-Pool: %1 von %2 belegt, %3 wartend</translation>
    </message>
    <message>
        <location filename="../ui/shell/StatusBar.cpp" line="74"/>
        <source>New API key</source>
        <translation>Neuer API-Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/shell/StatusBar.cpp" line="75"/>
        <source>Stored keys cannot be shown again. Mint a new owner key and copy it?</source>
        <translation>Gespeicherte Schlüssel können nicht erneut angezeigt werden. Einen neuen Eigentümer-Schlüssel erzeugen und kopieren?</translation>
    </message>
    <message>
        <location filename="../ui/shell/StatusBar.cpp" line="78"/>
        <source>minted in the console</source>
        <translation>in der Konsole erzeugt</translation>
    </message>
    <message>
        <location filename="../ui/shell/StatusBar.cpp" line="81"/>
        <source>API key copied to the clipboard</source>
        <translation>API-Schlüssel in die Zwischenablage kopiert</translation>
    </message>
</context>
<context>
    <name>ph::ui::ToolsDock</name>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="298"/>
        <location filename="../ui/tools/ToolsDock.cpp" line="389"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="311"/>
        <source>parameters: %1</source>
        <translation>Parameter: %1</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="325"/>
        <source>steps: %1</source>
        <translation>Schritte: %1</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="340"/>
        <source>Saved; the bridge offers it as user_%1.</source>
        <translation>Gespeichert; die Bridge stellt es als user_%1 bereit.</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="355"/>
        <source>Deleted %1.</source>
        <translation>%1 gelöscht.</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="373"/>
        <source>params: %1</source>
        <translation>Parameter: %1</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="405"/>
        <source>Run %1: %2</source>
        <translation>Lauf %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="424"/>
        <location filename="../ui/tools/ToolsDock.cpp" line="425"/>
        <source>Saved tools</source>
        <translation>Gespeicherte Werkzeuge</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="426"/>
        <source>Test arguments</source>
        <translation>Testargumente</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="427"/>
        <source>Test result</source>
        <translation>Testergebnis</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="429"/>
        <source>No saved tools yet. Press New tool to write one, or save a run&apos;s steps as a tool through the API (POST /tools).</source>
        <translation>Noch keine gespeicherten Werkzeuge. Drücken Sie „Neues Werkzeug“, um eines zu schreiben, oder speichern Sie die Schritte eines Laufs über die API (POST /tools) als Werkzeug.</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="431"/>
        <source>New tool</source>
        <translation>Neues Werkzeug</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="432"/>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="433"/>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="434"/>
        <source>lowercase_name (called as user_&lt;name&gt;)</source>
        <translation>name_in_kleinbuchstaben (Aufruf als user_&lt;name&gt;)</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="435"/>
        <source>Description</source>
        <translation>Beschreibung</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="436"/>
        <source>Runs</source>
        <translation>Führt aus</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="437"/>
        <source>Browser steps</source>
        <translation>Browser-Schritte</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="438"/>
        <source>JavaScript in a page</source>
        <translation>JavaScript in einer Seite</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="439"/>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="441"/>
        <source>JSON Schema, e.g. {&quot;type&quot;: &quot;object&quot;, &quot;properties&quot;: {&quot;query&quot;: {&quot;type&quot;: &quot;string&quot;}}} (empty: none)</source>
        <translation>JSON-Schema, z. B. {&quot;type&quot;: &quot;object&quot;, &quot;properties&quot;: {&quot;query&quot;: {&quot;type&quot;: &quot;string&quot;}}} (leer: keine)</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="443"/>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="445"/>
        <source>[{&quot;tool&quot;: &quot;act_on_tab&quot;, &quot;args&quot;: {&quot;action&quot;: &quot;navigate&quot;, &quot;url&quot;: &quot;https://example.com/?q={{query}}&quot;}}]</source>
        <translation>[{&quot;tool&quot;: &quot;act_on_tab&quot;, &quot;args&quot;: {&quot;action&quot;: &quot;navigate&quot;, &quot;url&quot;: &quot;https://example.com/?q={{query}}&quot;}}]</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="447"/>
        <source>JavaScript</source>
        <translation>JavaScript</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="449"/>
        <source>A function body; `params` holds the parameters, e.g. return document.title;</source>
        <translation>Ein Funktionsrumpf; `params` enthält die Parameter, z. B. return document.title;</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="450"/>
        <source>Page URL</source>
        <translation>Seiten-URL</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="451"/>
        <source>https://… (the page the code runs in)</source>
        <translation>https://… (die Seite, in der der Code ausgeführt wird)</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="452"/>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="453"/>
        <source>Test run with these parameters (JSON) — runs the saved tool</source>
        <translation>Testlauf mit diesen Parametern (JSON) — führt das gespeicherte Werkzeug aus</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsDock.cpp" line="454"/>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
</context>
<context>
    <name>ph::ui::ToolsModel</name>
    <message>
        <location filename="../ui/tools/ToolsModel.cpp" line="84"/>
        <source>Called as user_%1 on the browser bridge</source>
        <translation>Auf der Browser-Bridge als user_%1 aufrufbar</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsModel.cpp" line="91"/>
        <source>JavaScript</source>
        <translation>JavaScript</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsModel.cpp" line="91"/>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsModel.cpp" line="112"/>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsModel.cpp" line="114"/>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsModel.cpp" line="116"/>
        <source>Description</source>
        <translation>Beschreibung</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsModel.cpp" line="118"/>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <location filename="../ui/tools/ToolsModel.cpp" line="120"/>
        <source>Updated</source>
        <translation>Aktualisiert</translation>
    </message>
</context>
<context>
    <name>ph::ui::TrajectoriesDock</name>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="290"/>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="528"/>
        <source>Select a run to see its steps and result.</source>
        <translation>Wählen Sie einen Lauf aus, um seine Schritte und sein Ergebnis anzuzeigen.</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="328"/>
        <source>Error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="330"/>
        <source>Warning: %1</source>
        <translation>Warnung: %1</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="380"/>
        <source>(no result yet)</source>
        <translation>(noch kein Ergebnis)</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="403"/>
        <source>No run matches this filter.</source>
        <translation>Kein Lauf passt zu diesem Filter.</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="404"/>
        <source>No runs yet — try:
curl -H &quot;Authorization: Bearer $%1&quot; \
  -d &apos;{&quot;input&quot;:&quot;Read the title&quot;,&quot;urls&quot;:[&quot;https://example.org/&quot;]}&apos; \
  %2/agent</source>
        <translation>Noch keine Läufe — probieren Sie:
curl -H &quot;Authorization: Bearer $%1&quot; \
  -d &apos;{&quot;input&quot;:&quot;Read the title&quot;,&quot;urls&quot;:[&quot;https://example.org/&quot;]}&apos; \
  %2/agent</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="422"/>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="502"/>
        <source>Cancel run</source>
        <translation>Lauf abbrechen</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="452"/>
        <source>Continue run</source>
        <translation>Lauf fortsetzen</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="471"/>
        <source>Recording %1</source>
        <translation>Aufzeichnung von %1</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="475"/>
        <source>Replay it with recording_id &quot;%1&quot; on /agent, or replay_workflow on the bridge.</source>
        <translation>Spielen Sie sie mit recording_id &quot;%1&quot; über /agent oder mit replay_workflow auf der Bridge erneut ab.</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="496"/>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="516"/>
        <source>Runs</source>
        <translation>Läufe</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="497"/>
        <source>All runs</source>
        <translation>Alle Läufe</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="497"/>
        <source>Executing</source>
        <translation>Wird ausgeführt</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="497"/>
        <source>Waiting for input</source>
        <translation>Wartet auf Eingabe</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="498"/>
        <source>Succeeded</source>
        <translation>Erfolgreich</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="498"/>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="498"/>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="501"/>
        <source>Filter by task or id (Ctrl+F)</source>
        <translation>Nach Aufgabe oder ID filtern (Strg+F)</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="503"/>
        <source>Copy id</source>
        <translation>ID kopieren</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="504"/>
        <source>Recording…</source>
        <translation>Aufzeichnung…</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="505"/>
        <source>Copy as curl</source>
        <translation>Als curl kopieren</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="506"/>
        <source>Copy the request that started this run as a curl command (Ctrl+Shift+C); the key is read from $%1</source>
        <translation>Die Anfrage, die diesen Lauf gestartet hat, als curl-Befehl kopieren (Strg+Umschalt+C); der Schlüssel wird aus $%1 gelesen</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="509"/>
        <source>Run detail</source>
        <translation>Details des Laufs</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="510"/>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="518"/>
        <source>Run result</source>
        <translation>Ergebnis des Laufs</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="512"/>
        <source>Arguments</source>
        <translation>Argumente</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="513"/>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="514"/>
        <source>Show runs</source>
        <translation>Läufe anzeigen</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="515"/>
        <source>Filter runs</source>
        <translation>Läufe filtern</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="517"/>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="519"/>
        <source>Step arguments</source>
        <translation>Argumente des Schritts</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="520"/>
        <source>Step result</source>
        <translation>Ergebnis des Schritts</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="522"/>
        <source>The run needs answers</source>
        <translation>Der Lauf benötigt Antworten</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="523"/>
        <source>Answer and continue</source>
        <translation>Antworten und fortsetzen</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="525"/>
        <source>Phase</source>
        <translation>Phase</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="511"/>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="525"/>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="525"/>
        <source>Tool</source>
        <translation>Werkzeug</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="525"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="525"/>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesDock.cpp" line="525"/>
        <source>Summary</source>
        <translation>Zusammenfassung</translation>
    </message>
</context>
<context>
    <name>ph::ui::TrajectoriesModel</name>
    <message>
        <location filename="../ui/trajectories/TrajectoriesModel.cpp" line="89"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesModel.cpp" line="91"/>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesModel.cpp" line="93"/>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesModel.cpp" line="95"/>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesModel.cpp" line="97"/>
        <source>Credits</source>
        <translation>Credits</translation>
    </message>
    <message>
        <location filename="../ui/trajectories/TrajectoriesModel.cpp" line="99"/>
        <source>Tools used</source>
        <translation>Verwendete Werkzeuge</translation>
    </message>
</context>
<context>
    <name>ph::ui::TriggersDock</name>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="229"/>
        <source>This trigger is revoked; its URL answers 404.</source>
        <translation>Dieser Trigger ist widerrufen; seine URL liefert 404.</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="244"/>
        <location filename="../ui/triggers/TriggersDock.cpp" line="257"/>
        <source>Triggers</source>
        <translation>Trigger</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="245"/>
        <source>Label</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="246"/>
        <source>Runs</source>
        <translation>Führt aus</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="247"/>
        <source>A saved tool</source>
        <translation>Ein gespeichertes Werkzeug</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="248"/>
        <source>A past run again</source>
        <translation>Einen früheren Lauf erneut</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="249"/>
        <source>A prompt</source>
        <translation>Einen Prompt</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="250"/>
        <source>trajectory id (traj_…)</source>
        <translation>Trajektorien-ID (traj_…)</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="251"/>
        <source>What the agent should do</source>
        <translation>Was der Agent tun soll</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="252"/>
        <source>Pages, separated by spaces (optional)</source>
        <translation>Seiten, durch Leerzeichen getrennt (optional)</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="253"/>
        <source>Create trigger</source>
        <translation>Trigger erstellen</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="254"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="255"/>
        <source>Copy URL</source>
        <translation>URL kopieren</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="256"/>
        <source>Revoke</source>
        <translation>Widerrufen</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="258"/>
        <source>No triggers yet. Choose what a trigger runs in the form beside this list and press Create trigger: its URL starts that run with one POST, from a cron job, a form or another service.</source>
        <translation>Noch keine Trigger. Wählen Sie im Formular neben dieser Liste, was ein Trigger ausführt, und drücken Sie „Trigger erstellen“: Seine URL startet diesen Lauf mit einem POST, aus einem Cronjob, einem Formular oder einem anderen Dienst.</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="261"/>
        <source>Saved tool</source>
        <translation>Gespeichertes Werkzeug</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="262"/>
        <source>Run to repeat</source>
        <translation>Zu wiederholender Lauf</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="263"/>
        <source>Prompt</source>
        <translation>Prompt</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="264"/>
        <source>Pages</source>
        <translation>Seiten</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersDock.cpp" line="265"/>
        <source>Example request</source>
        <translation>Beispielanfrage</translation>
    </message>
</context>
<context>
    <name>ph::ui::TriggersModel</name>
    <message>
        <location filename="../ui/triggers/TriggersModel.cpp" line="41"/>
        <source>tool %1</source>
        <translation>Werkzeug %1</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersModel.cpp" line="43"/>
        <source>run %1</source>
        <translation>Lauf %1</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersModel.cpp" line="44"/>
        <source>prompt: %1</source>
        <translation>Prompt: %1</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersModel.cpp" line="46"/>
        <source>revoked</source>
        <translation>widerrufen</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersModel.cpp" line="46"/>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersModel.cpp" line="64"/>
        <source>Label</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersModel.cpp" line="66"/>
        <source>Target</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersModel.cpp" line="68"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersModel.cpp" line="70"/>
        <source>Fired</source>
        <translation>Auslösungen</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersModel.cpp" line="72"/>
        <source>Last fired</source>
        <translation>Zuletzt ausgelöst</translation>
    </message>
    <message>
        <location filename="../ui/triggers/TriggersModel.cpp" line="74"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
</context>
<context>
    <name>ph::ui::A2wRunsPanel</name>
    <message>
        <source>cancelled by the operator</source>
        <translation>vom Operator abgebrochen</translation>
    </message>
    <message>
        <source>Visitor session %1 on %2</source>
        <translation>Besuchersitzung %1 auf %2</translation>
    </message>
    <message>
        <source>Select a run to follow its events.</source>
        <translation>Wählen Sie einen Lauf, um seine Ereignisse zu verfolgen.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; on %2 — %3, %4 execution</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; auf %2 — %3, Ausführung %4</translation>
    </message>
    <message>
        <source>The run asks: %1</source>
        <translation>Der Lauf fragt: %1</translation>
    </message>
    <message>
        <source>Site</source>
        <translation>Website</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>A2W runs</source>
        <translation>A2W-Läufe</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Ereignisse</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>Antworten</translation>
    </message>
    <message>
        <source>No A2W runs yet. A run appears here, live, when an agent asks one of your sites for a task through its agent-to-web (A2W) endpoint.</source>
        <translation>Noch keine A2W-Läufe. Ein Lauf erscheint hier live, sobald ein Agent eine Ihrer Websites über ihren Agent-to-Web-Endpunkt (A2W) um eine Aufgabe bittet.</translation>
    </message>
    <message>
        <source>All sites</source>
        <translation>Alle Sites</translation>
    </message>
    <message>
        <source>All statuses</source>
        <translation>Alle Status</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Ausstehend</translation>
    </message>
    <message>
        <source>Waiting for a browser</source>
        <translation>Wartet auf einen Browser</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Input required</source>
        <translation>Eingabe nötig</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>Abgeschlossen</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>Expired</source>
        <translation>Abgelaufen</translation>
    </message>
    <message>
        <source>Answer for every question</source>
        <translation>Antwort auf jede Frage</translation>
    </message>
    <message>
        <source>Cancel run</source>
        <translation>Lauf abbrechen</translation>
    </message>
    <message>
        <source>Confirm action</source>
        <translation>Aktion bestätigen</translation>
    </message>
    <message>
        <source>Live browser views</source>
        <translation>Live-Browseransichten</translation>
    </message>
</context>
<context>
    <name>ph::ui::DelegationsPanel</name>
    <message>
        <source>any task</source>
        <translation>jede Aufgabe</translation>
    </message>
    <message>
        <source>%1 of %2 credits</source>
        <translation>%1 von %2 Credits</translation>
    </message>
    <message>
        <source>Revoked</source>
        <translation>Widerrufen</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>Aktiv</translation>
    </message>
    <message>
        <source>Expired</source>
        <translation>Abgelaufen</translation>
    </message>
    <message>
        <source>Delegations</source>
        <translation>Delegierungen</translation>
    </message>
    <message>
        <source>Delegated sessions</source>
        <translation>Delegierte Sitzungen</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>Site</source>
        <translation>Website</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Umfang</translation>
    </message>
    <message>
        <source>Spent</source>
        <translation>Verbraucht</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Läuft ab</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Revoke session</source>
        <translation>Sitzung widerrufen</translation>
    </message>
</context>
<context>
    <name>ph::ui::VisitorSessionsPanel</name>
    <message>
        <source>ended by the operator</source>
        <translation>vom Operator beendet</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keiner</translation>
    </message>
    <message>
        <source>%1 open, %2 blocked</source>
        <translation>%1 offen, %2 blockiert</translation>
    </message>
    <message>
        <source>Visitor sessions (embedded runtime)</source>
        <translation>Besuchersitzungen (eingebettete Laufzeit)</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>Sitzung</translation>
    </message>
    <message>
        <source>Site</source>
        <translation>Website</translation>
    </message>
    <message>
        <source>Active run</source>
        <translation>Aktiver Lauf</translation>
    </message>
    <message>
        <source>Tabs</source>
        <translation>Tabs</translation>
    </message>
    <message>
        <source>Last event</source>
        <translation>Letztes Ereignis</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Aktualisiert</translation>
    </message>
    <message>
        <source>End the session&apos;s run</source>
        <translation>Lauf der Sitzung beenden</translation>
    </message>
    <message>
        <source>End the selected visitor session&apos;s run</source>
        <translation>Lauf der gewählten Besuchersitzung beenden</translation>
    </message>
    <message>
        <source>Visitor sessions</source>
        <translation>Besuchersitzungen</translation>
    </message>
</context>
<context>
    <name>ph::ui::GrantsModel</name>
    <message>
        <location filename="../ui/keys/GrantsModel.cpp" line="1"/>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <location filename="../ui/keys/GrantsModel.cpp" line="1"/>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <location filename="../ui/keys/GrantsModel.cpp" line="1"/>
        <source>revoked</source>
        <translation>widerrufen</translation>
    </message>
    <message>
        <location filename="../ui/keys/GrantsModel.cpp" line="1"/>
        <source>Client</source>
        <translation>Client</translation>
    </message>
    <message>
        <location filename="../ui/keys/GrantsModel.cpp" line="1"/>
        <source>Acts as key</source>
        <translation>Handelt als Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/keys/GrantsModel.cpp" line="1"/>
        <source>Endpoint</source>
        <translation>Endpunkt</translation>
    </message>
    <message>
        <location filename="../ui/keys/GrantsModel.cpp" line="1"/>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <location filename="../ui/keys/GrantsModel.cpp" line="1"/>
        <source>Last used</source>
        <translation>Zuletzt verwendet</translation>
    </message>
    <message>
        <location filename="../ui/keys/GrantsModel.cpp" line="1"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
</context>
<context>
    <name>ph::ui::GrantsPanel</name>
    <message>
        <location filename="../ui/keys/GrantsPanel.cpp" line="1"/>
        <source>Revoke access</source>
        <translation>Zugriff widerrufen</translation>
    </message>
    <message>
        <location filename="../ui/keys/GrantsPanel.cpp" line="1"/>
        <source>Revoke the access of %1 (acting as key %2)? The client has to sign in again.</source>
        <translation>Den Zugriff von %1 (handelt als Schlüssel %2) widerrufen? Der Client muss sich erneut anmelden.</translation>
    </message>
    <message>
        <location filename="../ui/keys/GrantsPanel.cpp" line="1"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <location filename="../ui/keys/GrantsPanel.cpp" line="1"/>
        <source>Revoked the access of %1.</source>
        <translation>Der Zugriff von %1 wurde widerrufen.</translation>
    </message>
    <message>
        <location filename="../ui/keys/GrantsPanel.cpp" line="1"/>
        <source>OAuth grants of MCP clients</source>
        <translation>OAuth-Freigaben von MCP-Clients</translation>
    </message>
    <message>
        <location filename="../ui/keys/GrantsPanel.cpp" line="1"/>
        <source>No MCP client has signed in with OAuth yet. Add %1/mcp as a connector in an MCP client; you sign in and choose the key it acts as.</source>
        <translation>Noch hat sich kein MCP-Client mit OAuth angemeldet. Fügen Sie %1/mcp in einem MCP-Client als Connector hinzu; Sie melden sich an und wählen den Schlüssel, als der er handelt.</translation>
    </message>
</context>
<context>
    <name>ph::ui::DevicesDock</name>
    <message>
        <location filename="../ui/devices/DevicesDock.cpp" line="1"/>
        <source>Too many wrong pairing codes were tried: every pending code was withdrawn. Pair again.</source>
        <translation>Es wurden zu viele falsche Kopplungscodes versucht: Alle offenen Codes wurden zurückgezogen. Bitte erneut koppeln.</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesDock.cpp" line="1"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesDock.cpp" line="1"/>
        <source>Revoke device</source>
        <translation>Gerät widerrufen</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesDock.cpp" line="1"/>
        <source>Revoke %1 (key %2)? Its token stops working at once and it is disconnected; to use it again, pair it anew.</source>
        <translation>%1 (Schlüssel %2) widerrufen? Sein Token gilt sofort nicht mehr und die Verbindung wird getrennt; um es wieder zu nutzen, koppeln Sie es neu.</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesDock.cpp" line="1"/>
        <source>Revoked %1.</source>
        <translation>%1 widerrufen.</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesDock.cpp" line="1"/>
        <source>Devices</source>
        <translation>Geräte</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesDock.cpp" line="1"/>
        <source>A device is your own Chromium or Chrome with the Pilothouse extension: through /mcp, the key it is paired to can list its tabs and (only if you allow it for that key) run scripts in them, signed in as you. To add one, open chrome://extensions, turn on Developer mode, choose Load unpacked and pick the folder below. Then press Pair a device, open the extension&apos;s options, enter the address %1 and the code, and press Pair. Revoke a device here when you no longer want it reachable.</source>
        <translation>Ein Gerät ist Ihr eigenes Chromium oder Chrome mit der Pilothouse-Erweiterung: Über /mcp kann der Schlüssel, mit dem es gekoppelt ist, seine Tabs auflisten und (nur wenn Sie es für diesen Schlüssel erlauben) darin Skripte ausführen, angemeldet als Sie. Zum Hinzufügen öffnen Sie chrome://extensions, schalten den Entwicklermodus ein, wählen „Entpackte Erweiterung laden“ und den Ordner unten. Drücken Sie dann „Gerät koppeln“, öffnen Sie die Optionen der Erweiterung, geben Sie die Adresse %1 und den Code ein und drücken Sie „Koppeln“. Widerrufen Sie ein Gerät hier, sobald es nicht mehr erreichbar sein soll.</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesDock.cpp" line="1"/>
        <source>Extension folder:</source>
        <translation>Ordner der Erweiterung:</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesDock.cpp" line="1"/>
        <source>not found beside this program; see docs/api/devices.md</source>
        <translation>neben diesem Programm nicht gefunden; siehe docs/api/devices.md</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesDock.cpp" line="1"/>
        <source>Copy path</source>
        <translation>Pfad kopieren</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesDock.cpp" line="1"/>
        <source>Open folder</source>
        <translation>Ordner öffnen</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesDock.cpp" line="1"/>
        <source>No device is paired yet. Load the extension, then press Pair a device.</source>
        <translation>Noch kein Gerät gekoppelt. Laden Sie die Erweiterung und drücken Sie dann „Gerät koppeln“.</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesDock.cpp" line="1"/>
        <source>For key:</source>
        <translation>Für Schlüssel:</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesDock.cpp" line="1"/>
        <source>Pair a device</source>
        <translation>Gerät koppeln</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesDock.cpp" line="1"/>
        <source>Pairing code</source>
        <translation>Kopplungscode</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesDock.cpp" line="1"/>
        <source>Valid once, until %1.</source>
        <translation>Einmal gültig, bis %1.</translation>
    </message>
</context>
<context>
    <name>ph::ui::DevicesModel</name>
    <message>
        <location filename="../ui/devices/DevicesModel.cpp" line="1"/>
        <source>connected</source>
        <translation>verbunden</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesModel.cpp" line="1"/>
        <source>offline</source>
        <translation>offline</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesModel.cpp" line="1"/>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesModel.cpp" line="1"/>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesModel.cpp" line="1"/>
        <source>API key</source>
        <translation>API-Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesModel.cpp" line="1"/>
        <source>Extension</source>
        <translation>Erweiterung</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesModel.cpp" line="1"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesModel.cpp" line="1"/>
        <source>Last seen</source>
        <translation>Zuletzt gesehen</translation>
    </message>
    <message>
        <location filename="../ui/devices/DevicesModel.cpp" line="1"/>
        <source>Tabs</source>
        <translation>Tabs</translation>
    </message>
</context>
<context>
    <name>ph::ui::A2wRunsModel</name>
    <message>
        <source>a human verification</source>
        <translation>eine Prüfung, ob ein Mensch handelt</translation>
    </message>
    <message>
        <source>a payment method</source>
        <translation>eine Zahlungsart</translation>
    </message>
    <message>
        <source>a payment to confirm</source>
        <translation>eine zu bestätigende Zahlung</translation>
    </message>
    <message>
        <source>terms to accept</source>
        <translation>zu akzeptierende Bedingungen</translation>
    </message>
    <message>
        <source>an account to link</source>
        <translation>ein zu verknüpfendes Konto</translation>
    </message>
    <message>
        <source>an offer to claim</source>
        <translation>ein einzulösendes Angebot</translation>
    </message>
    <message>
        <source>%1 · waits for a person: %2</source>
        <translation>%1 · wartet auf eine Person: %2</translation>
    </message>
</context>
</TS>
