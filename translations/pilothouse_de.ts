<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>ph::ui::MainWindow</name>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="40"/>
        <source>About Pilothouse</source>
        <translation>Über Pilothouse</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="41"/>
        <source>&lt;b&gt;Pilothouse %1&lt;/b&gt;&lt;p&gt;A self-hosted web-automation service: an API server, a cloud browser and this console.&lt;/p&gt;</source>
        <translation>&lt;b&gt;Pilothouse %1&lt;/b&gt;&lt;p&gt;Ein selbst betriebener Dienst für Web-Automatisierung: API-Server, Cloud-Browser und diese Konsole.&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="88"/>
        <source>Pilothouse console</source>
        <translation>Pilothouse-Konsole</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="89"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="90"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="91"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="92"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location filename="../ui/shell/MainWindow.cpp" line="93"/>
        <source>&amp;About Pilothouse</source>
        <translation>Ü&amp;ber Pilothouse</translation>
    </message>
</context>
<context>
    <name>ph::ui::OverviewPage</name>
    <message>
        <location filename="../ui/shell/OverviewPage.cpp" line="57"/>
        <source>Pilothouse is running</source>
        <translation>Pilothouse läuft</translation>
    </message>
    <message>
        <location filename="../ui/shell/OverviewPage.cpp" line="58"/>
        <source>The API listens at %1. Send your API key as &quot;Authorization: Bearer &lt;key&gt;&quot;. For example:</source>
        <translation>Die API lauscht unter %1. Senden Sie Ihren API-Schlüssel als &quot;Authorization: Bearer &lt;key&gt;&quot;. Zum Beispiel:</translation>
    </message>
    <message>
        <location filename="../ui/shell/OverviewPage.cpp" line="65"/>
        <source>Requests</source>
        <translation>Anfragen</translation>
    </message>
</context>
<context>
    <name>ph::ui::StatusBar</name>
    <message>
        <location filename="../ui/shell/StatusBar.cpp" line="53"/>
        <source>API: %1</source>
        <translation>API: %1</translation>
    </message>
    <message>
        <location filename="../ui/shell/StatusBar.cpp" line="54"/>
        <source>Copy API key</source>
        <translation>API-Schlüssel kopieren</translation>
    </message>
    <message>
        <location filename="../ui/shell/StatusBar.cpp" line="56"/>
        <source>Mint a new owner API key and copy it to the clipboard</source>
        <translation>Einen neuen Eigentümer-API-Schlüssel erzeugen und in die Zwischenablage kopieren</translation>
    </message>
    <message>
        <location filename="../ui/shell/StatusBar.cpp" line="57"/>
        <source>Copy this session&apos;s API key to the clipboard</source>
        <translation>Den API-Schlüssel dieser Sitzung in die Zwischenablage kopieren</translation>
    </message>
    <message>
        <location filename="../ui/shell/StatusBar.cpp" line="65"/>
        <source>Browser pool: %1 of %2 busy, %3 waiting</source>
        <translation>Browser-Pool: %1 von %2 belegt, %3 wartend</translation>
    </message>
    <message>
        <location filename="../ui/shell/StatusBar.cpp" line="73"/>
        <source>New API key</source>
        <translation>Neuer API-Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/shell/StatusBar.cpp" line="74"/>
        <source>Stored keys cannot be shown again. Mint a new owner key and copy it?</source>
        <translation>Gespeicherte Schlüssel können nicht erneut angezeigt werden. Einen neuen Eigentümer-Schlüssel erzeugen und kopieren?</translation>
    </message>
    <message>
        <location filename="../ui/shell/StatusBar.cpp" line="77"/>
        <source>minted in the console</source>
        <translation>in der Konsole erzeugt</translation>
    </message>
    <message>
        <location filename="../ui/shell/StatusBar.cpp" line="80"/>
        <source>API key copied to the clipboard</source>
        <translation>API-Schlüssel in die Zwischenablage kopiert</translation>
    </message>
</context>
</TS>
